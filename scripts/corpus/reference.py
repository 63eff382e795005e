#!/usr/bin/env python3
"""Record Python feedparser's reading of every corpus feed as Tests/FeedParserTests/Corpus/reference.json.

ReferenceCorpusTests compares Tributary's FeedParser with this file, so the Swift tests need no Python.

Regenerate (from the repository root) after adding or changing a corpus file:

    pip install 'feedparser==6.0.14' chardet   # the versions reference.json records; others may differ
    python3 scripts/corpus/reference.py
    git diff Tests/FeedParserTests/Corpus/reference.json   # review it like code

Every feed is parsed from its bytes with the HTTP headers a server would send: `Content-Type: application/xml`
(no charset, so the BOM and the XML declaration decide the encoding, as in Tributary without an HTTP charset) and
`Content-Location: BASE_URL`, so relative links resolve against the same fixed URL the Swift test passes as
`baseURL`. A corpus file whose leading comment has a `Header: Content-Location: URL` line (feedparser's own
convention) uses that URL instead, on both sides. With chardet installed, feedparser guesses the encoding of a
feed that declares none (illformed/chardet/*); without it those feeds decode as windows-1252.

feedparser's values are normalised the way Tributary normalises items (DESIGN.md section 3):
- title: plain text. When feedparser says the title is HTML or XHTML (`title_detail.type`), tags are removed
  (block elements and <br> become a space) and character references decoded; then runs of space, tab, CR, LF
  and NO-BREAK SPACE collapse to one space and the ends are trimmed. Empty becomes null.
- link and id: as feedparser gives them (links already absolute), trimmed; empty becomes null.
- dates: feedparser's `*_parsed` values (UTC) as RFC 3339 `YYYY-MM-DDTHH:MM:SSZ`. Tributary keeps two dates, so
  `date_published` is feedparser's published, else updated, else created, and `date_modified` is updated when it
  differs from `date_published`. The raw published/updated/created values are recorded too, for diagnosis.
"""

from __future__ import annotations

import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import chardet
import feedparser

BASE_URL = "http://127.0.0.1:8097/tests/feed.xml"
ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "Tests" / "FeedParserTests" / "Corpus"
OUTPUT = CORPUS / "reference.json"

WHITESPACE = re.compile(r"[ \t\r\n]+")
HEADER = re.compile(rb"^Header:\s+([^:]+):(.+)$", re.MULTILINE)
BLOCK = {
    "br", "p", "div", "li", "ul", "ol", "tr", "td", "th", "table", "h1", "h2", "h3", "h4", "h5", "h6",
    "blockquote", "pre", "hr", "dd", "dt", "section", "article", "header", "footer",
}


class _TextExtractor(HTMLParser):
    """HTML to text: tags dropped, script/style skipped, block elements separated by a space."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skipping += 1
        elif tag in BLOCK:
            self.parts.append(" ")

    def handle_startendtag(self, tag, attrs):
        if tag in BLOCK:
            self.parts.append(" ")

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.skipping:
            self.skipping -= 1
        elif tag in BLOCK:
            self.parts.append(" ")

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)


def collapse(text: str | None) -> str | None:
    if text is None:
        return None
    # A no-break space is a character (as in HTML and in Tributary's FeedText); only the ends are trimmed of it.
    text = WHITESPACE.sub(" ", text).strip(" \u00a0")
    return text or None


def plain_title(value, detail) -> str | None:
    # The value comes from `title`, the type from `title_detail`: feedparser lets a nested element's title (an
    # Atom entry's <image><title>) overwrite `title_detail` but not `title` (wellformed/node_precedence).
    if not isinstance(value, str):
        return None
    kind = ((detail or {}).get("type") or "text/plain").lower()
    if "html" in kind:
        # The extractor decodes character references once (`convert_charrefs`), as a browser does: decoding them
        # again made `This &amp;amp; this` read `This & this` (SimplePie's tests), where HTML shows `This &amp; this`.
        extractor = _TextExtractor()
        extractor.feed(value)
        extractor.close()
        value = "".join(extractor.parts)
    return collapse(value)


def trimmed(value) -> str | None:
    if not isinstance(value, str):
        return None
    value = value.strip()
    return value or None


def rfc3339(parsed) -> str | None:
    if not parsed:
        return None
    # Written out rather than with strftime, whose %Y gives `103` for the year 103 on glibc (RFC 3339: four digits).
    year, month, day, hour, minute, second = tuple(parsed)[:6]
    return f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}Z"


def plain_get(mapping, key):
    # dict.get bypasses FeedParserDict's key aliases (`updated` falling back to `published`, and so on).
    return dict.get(mapping, key)


def entry_dates(entry) -> tuple[str | None, str | None, tuple[str | None, str | None, str | None]]:
    """An entry's dates as Tributary keeps them: `date_published` is feedparser's published, else updated, else
    created; `date_modified` is updated when it differs. Also the three raw values, for diagnosis."""
    published = rfc3339(plain_get(entry, "published_parsed"))
    updated = rfc3339(plain_get(entry, "updated_parsed"))
    created = rfc3339(plain_get(entry, "created_parsed"))
    date_published = published or updated or created
    date_modified = updated if updated and updated != date_published else None
    return date_published, date_modified, (published, updated, created)


def record(path: Path) -> dict:
    data = path.read_bytes()
    headers = {k.decode().strip().lower(): v.decode().strip() for k, v in HEADER.findall(data)}
    base = headers.get("content-location", BASE_URL)
    result = feedparser.parse(
        data,
        response_headers={"content-type": "application/xml", "content-location": base},
    )
    feed = result.get("feed", {})
    entries = []
    for entry in result.get("entries", []):
        date_published, date_modified, (published, updated, created) = entry_dates(entry)
        entries.append(
            {
                "title": plain_title(plain_get(entry, "title"), plain_get(entry, "title_detail")),
                "link": trimmed(plain_get(entry, "link")),
                "id": trimmed(plain_get(entry, "id")),
                "date_published": date_published,
                "date_modified": date_modified,
                "raw": {"published": published, "updated": updated, "created": created},
            }
        )
    exception = result.get("bozo_exception")
    return {
        "base_url": base,
        "bozo": bool(result.get("bozo")),
        "bozo_exception": f"{type(exception).__name__}: {exception}" if exception else None,
        "version": result.get("version") or None,
        "encoding": result.get("encoding") or None,
        "feed": {
            "title": plain_title(plain_get(feed, "title"), plain_get(feed, "title_detail")),
            "link": trimmed(plain_get(feed, "link")),
        },
        "entries": entries,
    }


def main() -> int:
    files = sorted(
        p for p in CORPUS.rglob("*") if p.is_file() and p.suffix in (".xml", ".rss", ".atom", ".rdf")
    )
    if not files:
        print(f"no corpus files under {CORPUS}", file=sys.stderr)
        return 1
    reference = {
        "generator": f"scripts/corpus/reference.py with feedparser {feedparser.__version__}, chardet {chardet.__version__}",
        "base_url": BASE_URL,
        "files": {p.relative_to(CORPUS).as_posix(): record(p) for p in files},
    }
    OUTPUT.write_text(json.dumps(reference, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    bozo = sum(1 for f in reference["files"].values() if f["bozo"])
    entries = sum(len(f["entries"]) for f in reference["files"].values())
    print(f"wrote {OUTPUT.relative_to(ROOT)}: {len(files)} files ({bozo} bozo), {entries} entries")
    return 0


if __name__ == "__main__":
    sys.exit(main())
