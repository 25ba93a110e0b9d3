/* efsan-view: the page's only script. page.py puts it into the page's
   <script> without this comment.
   Owns: the log-scale check box, which switches every timeline between its
   linear and its log chart (the page holds both; a class on <body> picks
   one). Without the script the page still shows everything, at linear
   scale. */
(function () {
  var box = document.getElementById('log-scale');
  if (!box) return;
  function apply() { document.body.classList.toggle('log-scale', box.checked); }
  box.addEventListener('change', apply);
  apply();
})();
