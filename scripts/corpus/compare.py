#!/usr/bin/env python3
"""Compare `tributary parse` with Python feedparser, field by field, on a directory of real-world feeds.

    pip install 'feedparser==6.0.14'
    python3 scripts/corpus/compare.py DIR [DIR ...] [--binary .build/debug/tributary] [--show N]

Each feed file (XML or JSON Feed; feedparser reads only XML, so JSON files are skipped) is parsed by both, from
its bytes, with the same base URL (`Content-Location` for feedparser, `--base-url` for parse). The fields
compared, normalised as DESIGN.md section 3 says Tributary writes them (see scripts/corpus/reference.py):

- feed: title (plain text), link, entry count;
- each entry, in order: title (plain text), link, id, date_published, date_modified (RFC 3339, UTC), the first
  author's name, the plain text of its content (content_html or content_text; feedparser's `content[0]`, else
  its `summary`), its enclosure URLs and its tags.

A file matches when every compared field of the feed and of all its entries is equal. The report gives the file
match rate, the mismatches by field, and the first mismatches in full. This is a development tool: the corpora
it runs on are not committed (their licences vary); Tests/FeedParserTests/Corpus is the committed corpus.
"""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import feedparser  # noqa: E402
from reference import collapse, entry_dates, plain_get, plain_title, trimmed  # noqa: E402
import re  # noqa: E402

BASE_URL = "http://127.0.0.1:8097/feeds/feed.xml"
ROOT = Path(__file__).resolve().parents[2]


def html_text(value: str | None) -> str | None:
    """HTML as plain text, as reference.py makes an HTML title plain."""
    return plain_title(value, {"type": "text/html"}) if value else None


def theirs(path: Path) -> dict:
    result = feedparser.parse(
        path.read_bytes(), response_headers={"content-type": "application/xml", "content-location": BASE_URL}
    )
    feed = result.get("feed", {})
    entries = []
    for entry in result.get("entries", []):
        date_published, date_modified, _ = entry_dates(entry)
        content = plain_get(entry, "content")
        if content:
            detail = content[0]
            body = html_text(detail.get("value")) if "html" in (detail.get("type") or "") else collapse(detail.get("value"))
        else:
            detail = plain_get(entry, "summary_detail") or {}
            value = plain_get(entry, "summary")
            body = html_text(value) if "html" in (detail.get("type") or "text/html") else collapse(value)
        author = (plain_get(entry, "authors") or [{}])[0].get("name") or None
        entries.append(
            {
                "title": plain_title(plain_get(entry, "title"), plain_get(entry, "title_detail")),
                "link": trimmed(plain_get(entry, "link")),
                "id": trimmed(plain_get(entry, "id")),
                "date_published": date_published,
                "date_modified": date_modified,
                "author": collapse(author),
                "content": body,
                "enclosures": sorted(e.get("href") for e in (entry.get("enclosures") or []) if e.get("href")),
                "tags": sorted({collapse(t.get("term")) for t in (plain_get(entry, "tags") or []) if collapse(t.get("term"))}),
            }
        )
    return {
        # feedparser's empty version with nothing read means it found no feed in the file either.
        "not_a_feed": not result.get("version") and not entries and not feed.get("title"),
        "feed": {
            "title": plain_title(plain_get(feed, "title"), plain_get(feed, "title_detail")),
            "link": trimmed(plain_get(feed, "link")),
            "entries": len(entries),
        },
        "entries": entries,
    }


def seconds(date: str | None) -> str | None:
    """An RFC 3339 date to whole seconds, as feedparser's `*_parsed` keeps it."""
    if not date:
        return None
    return re.sub(r"\.\d+Z$", "Z", date)


def ours(path: Path, binary: str) -> dict:
    run = subprocess.run(
        [binary, "parse", str(path), "--base-url", BASE_URL], capture_output=True, timeout=60
    )
    if run.returncode != 0:
        return {"error": run.stderr.decode(errors="replace").strip()[-300:]}
    doc = json.loads(run.stdout)
    entries = []
    for item in doc.get("items") or []:
        extension = item.get("_tributary") or {}
        if item.get("content_html") is not None:
            body = html_text(item["content_html"])
        else:
            body = collapse(item.get("content_text"))
        entries.append(
            {
                "title": collapse(item.get("title")),
                "link": trimmed(item.get("url")),
                # The item's id is its guid or Atom id (resolved when relative); a derived id means it had none.
                "id": trimmed(item.get("id")) if extension.get("guid") else None,
                "date_published": seconds(item.get("date_published")),
                "date_modified": seconds(item.get("date_modified")),
                "author": collapse(((item.get("authors") or [{}])[0]).get("name")),
                "content": body,
                "enclosures": sorted(a["url"] for a in item.get("attachments") or [] if a.get("url")),
                "tags": sorted({collapse(t) for t in item.get("tags") or [] if collapse(t)}),
            }
        )
    return {
        "feed": {
            "title": collapse(doc.get("title")),
            "link": trimmed(doc.get("home_page_url")),
            "entries": len(entries),
        },
        "entries": entries,
    }


def compare(a: dict, b: dict) -> list[tuple[str, object, object]]:
    if "error" in b:
        # Both refusing a file that is not a feed (an XML catalog, an empty file) is agreement.
        return [] if a["not_a_feed"] else [("parse failed", None, b["error"])]
    if a["not_a_feed"]:
        return [("read a feed feedparser does not see", None, b["feed"])]
    problems = []
    for key, value in a["feed"].items():
        if value != b["feed"].get(key):
            problems.append((f"feed.{key}", value, b["feed"].get(key)))
    for index, (x, y) in enumerate(zip(a["entries"], b["entries"])):
        for key, value in x.items():
            if value != y.get(key):
                problems.append((f"entry.{key}", value, y.get(key)))
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("--binary", default=str(ROOT / ".build" / "debug" / "tributary"))
    parser.add_argument("--show", type=int, default=30, help="mismatches to print in full")
    args = parser.parse_args()
    files = sorted(p for d in args.dirs for p in d.rglob("*") if p.is_file() and p.suffix != ".json")
    by_field = collections.Counter()
    failing = []
    for path in list(files):
        try:
            reference = theirs(path)
        except Exception as error:  # feedparser itself fails on some hostile files: nothing to compare with
            print(f"skipped {path}: feedparser failed ({type(error).__name__})", file=sys.stderr)
            files.remove(path)
            continue
        problems = compare(reference, ours(path, args.binary))
        if problems:
            failing.append((path, problems))
            for field in {p[0] for p in problems}:
                by_field[field] += 1
    matched = len(files) - len(failing)
    print(f"{matched} of {len(files)} files match ({100 * matched / max(1, len(files)):.1f}%)")
    for field, count in by_field.most_common():
        print(f"  {field}: {count} files")
    shown = 0
    for path, problems in failing:
        for field, want, got in problems:
            if shown >= args.show:
                break
            print(f"--- {path}: {field}\n  feedparser: {str(want)[:300]!s}\n  tributary:  {str(got)[:300]!s}")
            shown += 1
    return 0 if not failing else 1


if __name__ == "__main__":
    sys.exit(main())
