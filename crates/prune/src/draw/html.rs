//! A run as one self-contained web page that steps through the search: buttons (first, back,
//! forward, last), the ← and → keys (Home and End too), a step counter and the step in
//! words. Nothing is fetched — no network, no external script or font — so the file works
//! from a course page, a USB stick or an e-mail.
//!
//! Each step's picture is embedded as its own inline SVG ([`svg::inline`]), hidden but the one
//! shown; the style sheet is written once. The other design — one SVG and a table of each
//! step's marks for a script to apply — would be smaller, but a step changes more than marks
//! (values and windows change a card's width, and so the layout); embedding whole pictures
//! keeps the page a faithful copy of `prune draw --format svg`, and works with scripts off
//! (the first step is shown). A 100-step search of a 27-leaf tree makes about a megabyte.

use std::fmt::Write as _;

use super::steps::Frame;
use super::svg::{self, xml_escape};

const PAGE_STYLE: &str = "\
body { font-family: system-ui, sans-serif; margin: 1rem 2rem; color: #111; }
nav { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
nav button { font: inherit; padding: .2rem .7rem; }
#counter { font-variant-numeric: tabular-nums; min-width: 12ch; }
#narration { min-height: 3em; }
figure { margin: 1rem 0; }
figure svg { max-width: 100%; height: auto; }";

/// The script: shows one step's figure at a time, keeps the counter and the narration.
const SCRIPT: &str = r##"(function () {
  var steps = Array.prototype.slice.call(document.querySelectorAll("#steps > figure"));
  var counter = document.getElementById("counter");
  var narration = document.getElementById("narration");
  var at = 0;
  function show(i) {
    at = Math.max(0, Math.min(steps.length - 1, i));
    steps.forEach(function (f, k) { f.hidden = k !== at; });
    var f = steps[at];
    counter.textContent = "step " + f.dataset.step + " of " + f.dataset.last +
      " (picture " + (at + 1) + " of " + steps.length + ")";
    narration.textContent = f.dataset.narration;
    document.getElementById("first").disabled = document.getElementById("back").disabled = at === 0;
    document.getElementById("forward").disabled = document.getElementById("last").disabled =
      at === steps.length - 1;
  }
  document.getElementById("first").onclick = function () { show(0); };
  document.getElementById("back").onclick = function () { show(at - 1); };
  document.getElementById("forward").onclick = function () { show(at + 1); };
  document.getElementById("last").onclick = function () { show(steps.length - 1); };
  document.addEventListener("keydown", function (e) {
    var to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: steps.length - 1 }[e.key];
    if (to !== undefined) { show(to); e.preventDefault(); }
  });
  show(0);
})();"##;

/// The page: `title` on top, then the controls, the narration and one figure per frame; `last`
/// is the run's last step (the counter says "step k of last").
pub fn render(frames: &[Frame], title: &str, last: usize) -> String {
    let mut s = String::new();
    s.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    s.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let _ = writeln!(s, "<title>{}</title>", xml_escape(title));
    let _ = writeln!(s, "<style>\n{PAGE_STYLE}\n{}\n</style>", svg::STYLE);
    s.push_str("</head>\n<body>\n");
    let _ = writeln!(s, "<h1>{}</h1>", xml_escape(title));
    s.push_str("<nav>\n<button id=\"first\" title=\"first step (Home)\">⏮ first</button>\n");
    s.push_str("<button id=\"back\" title=\"back (←)\">◀ back</button>\n");
    let first = frames.first().map_or(0, |f| f.step);
    let _ = writeln!(
        s,
        "<span id=\"counter\" aria-live=\"polite\">step {first} of {last}</span>"
    );
    s.push_str("<button id=\"forward\" title=\"forward (→)\">forward ▶</button>\n");
    s.push_str("<button id=\"last\" title=\"last step (End)\">last ⏭</button>\n</nav>\n");
    let _ = writeln!(
        s,
        "<p id=\"narration\">{}</p>",
        frames
            .first()
            .map(|f| xml_escape(&f.narration))
            .unwrap_or_default()
    );
    s.push_str("<div id=\"steps\">\n");
    for (i, f) in frames.iter().enumerate() {
        let _ = writeln!(
            s,
            "<figure data-step=\"{}\" data-last=\"{last}\" data-narration=\"{}\"{}>",
            f.step,
            xml_escape(&f.narration),
            if i == 0 { "" } else { " hidden" }
        );
        s.push_str(&svg::inline(&f.pic, &f.title));
        s.push_str("</figure>\n");
    }
    s.push_str("</div>\n");
    let _ = writeln!(s, "<script>\n{SCRIPT}\n</script>");
    s.push_str("</body>\n</html>\n");
    s
}
