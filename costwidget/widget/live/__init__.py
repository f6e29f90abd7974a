"""The live link: while a front end is attached it draws the operating point."""
