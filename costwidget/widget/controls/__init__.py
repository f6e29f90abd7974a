"""What every component is built from: the slider binding, batched mark updates, the theme
and its CSS, the layout of the boxes."""
