/*
 * Tapedeck loader (magicFormat.js): records visits to this site for the campaign below.
 * It loads nothing and records nothing when the visitor asks not to be tracked (Do-Not-Track
 * or Global Privacy Control), and it waits for the page's load event, so it never slows a page.
 * The recorder comes from a stable URL, so updates reach this site without a new download.
 */
(function () {
  var campaignId = '';
  var baseUrl = '';

  var w = window;
  var n = navigator;
  var t = w.tapedeck || {};
  if (!campaignId || t.campaignId) return;
  // The one global. Its API queues calls until the recorder takes them over; a page's own
  // stub (the same, defined before this tag) keeps its queue.
  w.tapedeck = t;
  t.q = t.q || [];
  'identify event tag consent stop start'.split(' ').forEach(function (m) {
    t[m] =
      t[m] ||
      function () {
        if (t.q.length < 100) t.q.push([m].concat([].slice.call(arguments)));
      };
  });
  if (n.globalPrivacyControl === true || n.doNotTrack === '1' || w.doNotTrack === '1' || n.msDoNotTrack === '1') return;

  // The recorder reads its settings here, adds flush() and takes over the API.
  t.campaignId = campaignId;
  t.baseUrl = baseUrl;

  function load() {
    var script = document.createElement('script');
    script.async = true;
    script.src = baseUrl + '/static/recorder.js';
    document.head.appendChild(script);
  }
  if (document.readyState === 'complete') load();
  else w.addEventListener('load', load);
})();
