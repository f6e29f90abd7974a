"""JavaScript that reads the widget's controls off the page, shared by the browser tests.

Controls are found by what identifies them to a user (the p(+) slider's class, a cost box's
label), never by their position among the page's inputs, which changes with the layout.
"""

# The body of a function returning the operating-point controls as the page shows them: p(+)
# (the value of the slider's handle), both costs (the boxes labelled C(-|+) and C(+|-), read in
# full precision), the PCF(+) readout, and `expected`, the PCF(+) those controls make.
CONTROLS = r"""
  const handle = document.querySelector('.costwidget .costwidget-p-pos .noUi-handle');
  const p = handle ? parseFloat(handle.getAttribute('aria-valuetext')) : NaN;
  const costBox = start => {
    const label = Array.from(document.querySelectorAll('.costwidget .widget-label')).find(l => {
      const t = l.innerText.trim(); return t.startsWith(start) && !t.includes('/'); });
    const input = label && label.parentElement.querySelector('input');
    return input ? input.value : null;
  };
  const fnText = costBox('C(-|+)'), fpText = costBox('C(+|-)');
  const fn = parseFloat(fnText), fp = parseFloat(fpText);
  const pcfEl = document.querySelector('.costwidget .costwidget-pcf');
  const pcf = pcfEl ? parseFloat(pcfEl.innerText.replace(/^[^0-9.-]*/, '')) : NaN;
  return {p, fn, fp, fnText, fpText, pcf, expected: p * fn / (p * fn + (1 - p) * fp)};
"""
