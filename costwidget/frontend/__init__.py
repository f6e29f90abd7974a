"""What the Python package and the page's front end (``js/src``) share: `contract`."""
