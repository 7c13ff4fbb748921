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
  if (!campaignId || w.tapedeck) return;
  if (n.globalPrivacyControl === true || n.doNotTrack === '1' || w.doNotTrack === '1' || n.msDoNotTrack === '1') return;

  // The one global: the recorder reads its settings from here and adds flush() and stop().
  w.tapedeck = { campaignId: campaignId, baseUrl: baseUrl };

  function load() {
    var script = document.createElement('script');
    script.async = true;
    script.src = baseUrl + '/static/recorder.js';
    document.head.appendChild(script);
  }
  if (document.readyState === 'complete') load();
  else w.addEventListener('load', load);
})();
