"""partita's HTML text against a real browser's: no word Chromium shows may be missing.

Every page below, ordinary or hostile (built here, never stored), is loaded once by headless
Chromium (Debian's `chromium`) in one run: a wrapper page opens each in a sandboxed frame
without scripts, removes what partita drops by design (scripts, styles, `<head>`, `<del>`,
form controls, embedded media and SVG, hidden elements: the PRINCIPLES of
`partita.partitioners.html`), takes the `innerText` of the first `<main>` (else the body) and
writes them all into its own DOM, which `--dump-dom` prints. The test then asks that every word
of that text, counted, is among the words of partita's elements. Characters partita drops or
replaces by design (C0 controls; noncharacters) are treated so in the browser's words too.

No network: the pages are local files and every host name resolves to nothing. Without
Chromium (`apt-get install chromium`) the tests skip, and fail under `PARTITA_REQUIRE_ALL=1` (CI).
"""

from __future__ import annotations

import collections
import html
import io
import json
import re
import subprocess
from pathlib import Path

import pytest

from partita.partitioners.html import partition_html
from tests.robustness.hostile_html import CASES, declared_charset_page
from tests.shared import require_program

_TABLE = (
    "<table><caption>Prices per unit</caption><thead><tr><th colspan='2'>Item cost</th></tr>"
    "</thead><tbody><tr><td rowspan='2'>Tea leaves</td><td>1 each<br>boxed</td></tr>"
    "<tr><td>2 dozen</td></tr></tbody></table>"
)
_ORDINARY = (
    "<!DOCTYPE html><html lang='en'><head><title>Ignored title</title>"
    "<style>p { margin: 0 }</style></head><body><h1>Annual report</h1>"
    "<p>Revenue <b>grew</b> by <i>ten</i> percent; see <a href='/x'>the notes</a>.</p>"
    "<ul><li>first point<ul><li>nested point</li></ul></li><li>second point</li></ul>"
    "<ol><li>step one</li><li>step two</li></ol><dl><dt>Term</dt><dd>Definition text</dd></dl>"
    f"{_TABLE}<pre>def main():\n    return 42</pre><blockquote>Quoted wisdom here</blockquote>"
    "<figure><img src='a.png' alt='diagram'><figcaption>Figure one</figcaption></figure>"
    "<p>Caf&eacute; &amp; cr&egrave;me &#x263A; line<br>break</p></body></html>"
)

PAGES: dict[str, bytes] = {
    "ordinary/report": _ORDINARY.encode(),
    "ordinary/main-and-chrome": (
        b"<body><nav><a href='/'>Home</a></nav><div>site chrome</div><main><h2>Article</h2>"
        b"<p>Body of the article</p></main><footer>footer text</footer></body>"
    ),
    "ordinary/navigation-kept": (
        b"<body><nav><a href='/'>Home</a> <ul><li><a href='/a'>About us</a></li>"
        b"<li><a href='/b'>Contact</a></li></ul></nav><div role='navigation'>Site map</div>"
        b"<ul class='menu'><li><a href='/c'>Careers</a></li><li><a href='/d'>Press</a></li>"
        b"</ul><p>Body of the page</p></body>"
    ),
    "ordinary/hidden-and-scripts": (
        b"<body><script>document.write('written')</script><p hidden>hidden text</p>"
        b"<p style='display: none'>undisplayed</p><p>shown words</p><noscript>no js</noscript>"
        b"<template><p>template words</p></template></body>"
    ),
    "ordinary/declared-windows-1252": (
        '<meta charset="iso-8859-1"><p>caf\u00e9 \u201cquoted\u201d na\u00efve</p>'.encode("cp1252")
    ),
    "ordinary/declared-shift-jis": (
        '<meta charset="shift_jis"><p>\u65e5\u672c\u8a9e \u306e \u6587\u66f8</p>'.encode("cp932")
    ),
    "hostile/content-after-html-end": (
        b"<html><body><p>alpha</p></body></html><p>beta gamma</p>delta"
        b"<table><tr><td>epsilon</td></tr></table> zeta"
    ),
    "hostile/text-after-body-end": b"<p>alpha</p></body> beta <div>gamma</div> delta",
    "hostile/bare-text-in-table": (
        b"<table>alpha<tr><td>beta</td> gamma </tr><caption>delta</caption> epsilon"
        b"<tbody> zeta <tr><td>eta</td></tr></tbody></table>"
    ),
    "hostile/elements-in-table": (
        b"<table><div>alpha</div><tr><td>beta</td></tr><p>gamma</p> <li>delta</li>"
        b"<form>epsilon<input value='x'></form><tr><td>zeta<span>eta</span></td></tr></table>"
    ),
    "hostile/cells-without-rows": (
        b"<table><td>alpha</td><th>beta</th><tbody><td>gamma</td></tbody></table>"
    ),
    "hostile/table-in-a-table-row": (
        b"<table><tr><td>alpha</td></tr><table><tr><td>beta</td></tr></table></table>gamma"
    ),
    "hostile/head-after-body": (
        b"<html><body><p>alpha</p></body><head><title>no</title><p>beta</p></head>"
        b"<p>gamma</p></html>"
    ),
    "hostile/second-head-in-body": b"<body><p>alpha</p><head><p>beta</p></head> gamma</body>",
    "hostile/html-in-unclosed-svg": (
        b"<p>alpha</p><svg><circle r='1'></circle><p>beta</p> gamma <div>delta</div>"
    ),
    "hostile/control-characters": (
        b"<table><tr><td>al\x01pha beta\x02</td></tr></table><p>gam\x7fma &#1;delta</p>"
    ),
    "hostile/misnested-formatting": b"<p><b>alpha <i>beta</b> gamma</i> delta</p><p>epsilon",
    "hostile/raw-less-than": b"<p>1 < 2 and 3 > 2 alpha</p><p>a <b beta</p>",
    "hostile/unclosed-comment": b"<p>alpha</p><!-- beta <p>gamma</p>",
    "hostile/deep-nesting-within-bound": b"<div>" * 1500 + b"alpha" + b"</div>" * 1500,
    "hostile/meta-charset-rot13": declared_charset_page("rot13"),
    "hostile/meta-charset-cp037": b'<meta charset="cp037"><p>plain ascii words</p>',
}
"""Pages built for the comparison, by name; each has words a reader must not lose."""

for _case in CASES:
    if _case.name.startswith("html/control") or _case.name == "html/meta-charset-undefined":
        PAGES[_case.name] = _case.build()

_CONTROLS = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f]")
_NONCHARACTERS = re.compile("[\ufffe\uffff]")
_WRAPPER = """<!DOCTYPE html><html><body><pre id="out"></pre><script>
const pages = %s;
const XHTML = "http://www.w3.org/1999/xhtml";
const dropped = "script,style,noscript,template,head,title,del,svg,canvas,iframe,object,"
  + "embed,video,audio,button,select,textarea,input,datalist,map,[hidden],[aria-hidden=true]";
const texts = {};
let pending = pages.length;
for (const page of pages) {
  const frame = document.createElement("iframe");
  frame.setAttribute("sandbox", "allow-same-origin");
  frame.onload = () => {
    if (page in texts) return;
    const doc = frame.contentDocument;
    doc.querySelectorAll(dropped).forEach((element) => element.remove());
    const main = [...doc.querySelectorAll("main")].find((m) => m.namespaceURI === XHTML);
    const start = main || doc.body || doc.documentElement;
    texts[page] = start ? (start.innerText ?? start.textContent) : "";
    if (--pending === 0) document.getElementById("out").textContent = JSON.stringify(texts);
  };
  frame.src = page;
  document.body.appendChild(frame);
}
</script></body></html>"""


@pytest.fixture(scope="module")
def browser_texts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The text Chromium shows of each page of `PAGES`, by name (one Chromium run)."""
    chromium = require_program("chromium", "chromium-browser", install="apt-get install chromium")
    folder = tmp_path_factory.mktemp("browser")
    files = {}
    for number, (name, data) in enumerate(PAGES.items()):
        files[name] = f"page{number}.html"
        (folder / files[name]).write_bytes(data)
    (folder / "wrapper.html").write_text(_WRAPPER % json.dumps(list(files.values())))
    output = _run_chromium(chromium, folder)
    match = re.search(r'<pre id="out">(.*?)</pre>', output, re.DOTALL)
    assert match, f"Chromium gave no texts; its DOM began: {output[:500]!r}"
    by_file = json.loads(html.unescape(match.group(1)))
    return {name: by_file[file] for name, file in files.items()}


def _run_chromium(chromium: str, folder: Path) -> str:
    command = [
        chromium,
        *("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"),
        *("--disable-background-networking", "--disable-component-update"),
        "--allow-file-access-from-files",
        "--host-resolver-rules=MAP * ~NOTFOUND",
        f"--user-data-dir={folder / 'profile'}",
        "--virtual-time-budget=30000",
        "--dump-dom",
        (folder / "wrapper.html").as_uri(),
    ]
    result = subprocess.run(command, capture_output=True, timeout=180, check=False)
    return result.stdout.decode("utf-8", errors="replace")


def _words(text: str) -> collections.Counter[str]:
    """Count the words of `text` as partita would have it: C0 controls dropped, noncharacters
    replaced by U+FFFD."""
    return collections.Counter(_NONCHARACTERS.sub("\ufffd", _CONTROLS.sub("", text)).split())


def test_the_browser_shows_every_page(browser_texts: dict[str, str]) -> None:
    assert set(browser_texts) == set(PAGES)
    assert all(_words(text) for text in browser_texts.values())


@pytest.mark.parametrize("name", list(PAGES))
def test_no_word_the_browser_shows_is_missing(name: str, browser_texts: dict[str, str]) -> None:
    elements = partition_html(file=io.BytesIO(PAGES[name]))
    ours = _words(" ".join(element.text for element in elements))
    missing = _words(browser_texts[name]) - ours
    assert not missing, f"{name}: partita lacks {sorted(missing.elements())}"
