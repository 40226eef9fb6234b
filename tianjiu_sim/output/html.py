"""One self-contained HTML page per results folder, made from its report.md.

The page needs no other file to read: plots are embedded as data URIs, the style is inline,
and there is no script. Local CSV links stay relative (they download the data beside the page).
A contents list links every section; the manifest's provenance closes the page. The style
keeps wide tables scrollable at phone width and names CJK fonts first so tile names such as
至尊 stay readable.
"""
from __future__ import annotations

import base64
import html
import json
import re
from pathlib import Path
from typing import Any

import markdown

from .results import atomic_write_text

_STYLE = """
:root { color-scheme: light; --fg: #1d2430; --muted: #5b6575; --line: #d8dde6; --accent: #8a1c1c; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; color: var(--fg); background: #fff; line-height: 1.55;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans CJK SC", "Noto Sans CJK TC",
    "Source Han Sans", "PingFang TC", "PingFang SC", "Microsoft JhengHei", "Microsoft YaHei",
    "WenQuanYi Zen Hei", "Hiragino Sans", sans-serif; }
main { max-width: 68rem; margin: 0 auto; padding: 1rem 1rem 3rem; }
h1 { font-size: 1.6rem; margin: 0.4rem 0 0.8rem; line-height: 1.25; }
h2 { font-size: 1.25rem; margin: 2rem 0 0.6rem; padding-top: 0.6rem; border-top: 1px solid var(--line); }
h3 { font-size: 1.05rem; margin: 1.4rem 0 0.4rem; }
a { color: var(--accent); }
p, li { overflow-wrap: anywhere; }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "Noto Sans Mono CJK SC", monospace;
  font-size: 0.9em; background: #f3f4f7; padding: 0.05em 0.3em; border-radius: 3px; }
pre { background: #f3f4f7; padding: 0.7rem; overflow-x: auto; border-radius: 4px; font-size: 0.85rem; }
pre code { background: none; padding: 0; }
img { display: block; max-width: 100%; height: auto; margin: 0.6rem 0; border: 1px solid var(--line); }
.table-wrap { overflow-x: auto; margin: 0.6rem 0 1rem; border: 1px solid var(--line); border-radius: 4px; }
table { border-collapse: collapse; font-size: 0.88rem; font-variant-numeric: tabular-nums; min-width: 100%; }
th, td { padding: 0.3rem 0.55rem; border-bottom: 1px solid var(--line); text-align: right; white-space: nowrap; }
th { background: #f3f4f7; position: sticky; top: 0; }
th:first-child, td:first-child { text-align: left; }
/* the first column names the row: it stays in view while a wide table scrolls sideways */
td:first-child { position: sticky; left: 0; background: #fff; box-shadow: 1px 0 0 var(--line); }
th:first-child { position: sticky; left: 0; z-index: 1; box-shadow: 1px 0 0 var(--line); }
tbody tr:nth-child(even) { background: #fafbfc; }
tbody tr:nth-child(even) td:first-child { background: #fafbfc; }
nav.toc { background: #f7f8fa; border: 1px solid var(--line); border-radius: 4px; padding: 0.5rem 1rem;
  margin: 1rem 0; }
nav.toc ul { margin: 0.2rem 0; padding-left: 1.2rem; }
.top { font-size: 0.8rem; font-weight: normal; margin-left: 0.6rem; text-decoration: none; }
.provenance th { width: 1%; white-space: nowrap; text-align: left; vertical-align: top; }
.provenance td { white-space: normal; text-align: left; overflow-wrap: anywhere; }
@media (max-width: 40rem) {
  main { padding: 0.6rem 0.7rem 2rem; }
  h1 { font-size: 1.35rem; }
  table { font-size: 0.8rem; }
  th, td { padding: 0.25rem 0.4rem; }
  .plot { overflow-x: auto; }
  .plot img.wide { width: 46rem; max-width: none; }
}
.muted { color: var(--muted); font-size: 0.85rem; }
"""

_MIME = {".png": "image/png", ".svg": "image/svg+xml", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}


def _embed_images(body: str, folder: Path) -> str:
    """Replace relative image sources by data URIs; an image that is missing is an error."""
    def repl(m: re.Match) -> str:
        src = html.unescape(m.group(2))
        if src.startswith(("data:", "http:", "https:")):
            return m.group(0)
        path = folder / src
        mime = _MIME.get(path.suffix.lower())
        if mime is None or not path.is_file():
            raise FileNotFoundError(f"the report links an image that is not in the folder: {src}")
        raw = path.read_bytes()
        data = base64.b64encode(raw).decode("ascii")
        # a PNG's width is in its IHDR chunk; a wide multi-panel plot scrolls at phone width
        # instead of shrinking until its labels cannot be read
        wide = raw[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(raw[16:20], "big") > 1400
        return f'{m.group(1)}data:{mime};base64,{data}{m.group(3)}' + (' class="wide"' if wide else "")
    body = re.sub(r'(<img[^>]*?\ssrc=")([^"]+)(")', repl, body)
    return re.sub(r"<p>(<img[^>]*>)</p>", r'<div class="plot">\1</div>', body)


def _wrap_tables(body: str) -> str:
    """Put each table in a scrolling box so a wide table never widens the page on a phone."""
    return body.replace("<table>", '<div class="table-wrap"><table>').replace("</table>", "</table></div>")


def _manifests(folder: Path) -> list[tuple[str, dict[str, Any]]]:
    """(label, manifest) of the folder and of its immediate subfolders, in name order."""
    found = []
    for m in [folder / "manifest.json", *sorted(folder.glob("*/manifest.json"))]:
        try:
            data = json.loads(m.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict):
            found.append((m.parent.name if m.parent != folder else folder.name, data))
    return found


def _provenance_value(key: str, value: Any) -> str:
    """One manifest value as HTML: nested data as pretty JSON, the rest as text."""
    if isinstance(value, (dict, list)):
        text = json.dumps(value, ensure_ascii=False, indent=1, default=str)
        if len(text) > 160:
            return (f"<details><summary>{len(value)} entr{'y' if len(value) == 1 else 'ies'}</summary>"
                    f"<pre>{html.escape(text)}</pre></details>")
        return f"<code>{html.escape(json.dumps(value, ensure_ascii=False, default=str))}</code>"
    return html.escape(str(value))


def _provenance(folder: Path) -> str:
    """The provenance section: every manifest's fields, one table per manifest."""
    parts = ['<h2 id="provenance">Provenance<a class="top" href="#top">↑ top</a></h2>']
    manifests = _manifests(folder)
    if not manifests:
        parts.append('<p class="muted">This folder has no manifest.json; the report was written by hand '
                     "or by the script beside it.</p>")
    for label, data in manifests:
        rows = "".join(f"<tr><th>{html.escape(str(k))}</th><td>{_provenance_value(k, v)}</td></tr>"
                       for k, v in data.items())
        parts.append(f"<h3>{html.escape(label)}/manifest.json</h3>"
                     f'<div class="table-wrap"><table class="provenance"><tbody>{rows}</tbody></table></div>')
    return "\n".join(parts)


def render_html(folder: str | Path, md_text: str) -> str:
    """The self-contained page for `folder` from its report markdown."""
    folder = Path(folder)
    md = markdown.Markdown(extensions=["tables", "fenced_code", "sane_lists", "toc"],
                           extension_configs={"toc": {"toc_depth": "2-3"}})
    body = md.convert(md_text)
    # the sections: the level-2 headings, which sit under the page's one level-1 heading
    heads = [h for top in md.toc_tokens for h in ([top] if top["level"] >= 2 else top["children"])]
    title = next((t["name"] for t in md.toc_tokens if t["level"] == 1), folder.name)
    body = re.sub(r'(<h2 id="[^"]+">)(.*?)(</h2>)', r'\1\2<a class="top" href="#top">↑ top</a>\3', body)
    items = "".join(f'<li><a href="#{h["id"]}">{h["name"]}</a></li>' for h in heads)
    toc = (f'<nav class="toc" aria-label="Contents"><strong>Contents</strong><ul>{items}'
           '<li><a href="#provenance">Provenance</a></li></ul></nav>')
    # the contents list goes after the first heading and its introduction, before the first section
    cut = body.find("<h2")
    body = body + "\n" if cut < 0 else body[:cut] + toc + "\n" + body[cut:]
    if cut < 0:
        body = toc + body
    body = _wrap_tables(_embed_images(body, folder))
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{title} — tjsim</title>\n<style>{_STYLE}</style>\n</head>\n"
            f'<body>\n<main id="top">\n{body}\n{_provenance(folder)}\n'
            '<p class="muted">Written by <code>tjsim report --format html</code> from report.md.</p>\n'
            "</main>\n</body>\n</html>\n")


def write_html(folder: str | Path) -> str:
    """Write report.html beside the folder's report.md; returns the file name."""
    folder = Path(folder)
    page = render_html(folder, (folder / "report.md").read_text(encoding="utf-8"))
    atomic_write_text(folder / "report.html", page)
    return "report.html"
