"""The widget's words: headline, readout, caption, band readout, and what it shows read
back in Python."""
