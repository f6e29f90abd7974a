"""What the user moves: the operating point, the constraint, the range of interest, hover,
the draw controls and the NEC zoom."""
