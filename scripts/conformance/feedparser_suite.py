#!/usr/bin/env python3
"""Run feedparser's data-driven test suite against `tributary parse`.

feedparser (BSD-2-Clause, https://github.com/kurtmckee/feedparser) ships some two thousand small feeds, each
with a comment naming what a parser should make of it:

    <!--
    Header:      Content-Location: http://example.com/feed   (only for the "http" cases)
    Description: feed title
    Expect:      not bozo and feed['title'] == 'Example feed'
    -->

This script runs `tributary parse` on every one of them (wellformed/, illformed/, encoding/, entities/ and, where
the suite has it, json/), turns the JSON Feed it prints into a result shaped like feedparser's (a small, generic
mapping: see `build_result`), evaluates the Expect expression against it as feedparser's own runner does, and
reports the pass rate by folder. Nothing of feedparser is kept in this repository: the tests are read at run
time from `--feedparser-tests DIR` or from feedparser's sdist, downloaded from PyPI with pip.

Standard library only; Python 3.11. See README.md beside this file.
"""

from __future__ import annotations

import argparse
import builtins
import concurrent.futures
import datetime
import fnmatch
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FEEDPARSER_VERSION = "6.0.14"
# The sdist pip downloads is checked against this digest (pip's --require-hashes).
FEEDPARSER_SDIST_SHA256 = "088679b0c4b543ee211a820dd544698c76a402122eae7473c04a43425f283d06"
SUITE_FOLDERS = ("wellformed", "illformed", "encoding", "entities", "json")
REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DIFFERENCES = Path(__file__).resolve().parent / "feedparser-differences.txt"
# feedparser's runner serves the http cases from here; relative URLs in them resolve against it.
HTTP_ORIGIN = "http://127.0.0.1:8097/"


# ---------------------------------------------------------------------------------------------------------------
# FeedParserDict: the alias rules of feedparser's result dictionary (feedparser/util.py), written again.


class FeedParserDict(dict):
    """A dict with feedparser's aliases: `description` finds `summary` or `subtitle`, `guid` finds `id`, `date`
    finds `updated`, `category` is the first tag's term, `enclosures` are the links with rel="enclosure", keys
    are readable as attributes, and `updated` falls back to `published` as in feedparser 6."""

    keymap: dict[str, str | list[str]] = {
        "channel": "feed",
        "items": "entries",
        "guid": "id",
        "date": "updated",
        "date_parsed": "updated_parsed",
        "description": ["summary", "subtitle"],
        "description_detail": ["summary_detail", "subtitle_detail"],
        "url": ["href"],
        "modified": "updated",
        "modified_parsed": "updated_parsed",
        "issued": "published",
        "issued_parsed": "published_parsed",
        "copyright": "rights",
        "copyright_detail": "rights_detail",
        "tagline": "subtitle",
        "tagline_detail": "subtitle_detail",
    }

    def __getitem__(self, key: str) -> Any:
        if key == "category":
            tags = dict.get(self, "tags") or []
            if not tags:
                raise KeyError("category")
            return tags[0]["term"]
        if key == "enclosures":
            return [
                FeedParserDict((k, v) for k, v in link.items() if k != "rel")
                for link in dict.__getitem__(self, "links")
                if link.get("rel") == "enclosure"
            ]
        if key == "license":
            for link in dict.__getitem__(self, "links"):
                if link.get("rel") == "license" and "href" in link:
                    return link["href"]
            raise KeyError("license")
        if key in ("updated", "updated_parsed"):
            fallback = "published" + key[len("updated"):]
            if not dict.__contains__(self, key) and dict.__contains__(self, fallback):
                return dict.__getitem__(self, fallback)
            return dict.__getitem__(self, key)
        real = self.keymap.get(key, key)
        if isinstance(real, list):
            for candidate in real:
                if dict.__contains__(self, candidate):
                    return dict.__getitem__(self, candidate)
        elif dict.__contains__(self, real):
            return dict.__getitem__(self, real)
        return dict.__getitem__(self, key)

    def __contains__(self, key: object) -> bool:
        if key in ("updated", "updated_parsed"):
            return dict.__contains__(self, key)
        try:
            self[key]  # type: ignore[index]
        except (KeyError, TypeError):
            return False
        return True

    has_key = __contains__

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def __setitem__(self, key: str, value: Any) -> None:
        real = self.keymap.get(key, key)
        dict.__setitem__(self, real[0] if isinstance(real, list) else real, value)

    def setdefault(self, key: str, default: Any = None) -> Any:
        if key not in self:
            self[key] = default
            return default
        return self[key]

    def __getattr__(self, key: str) -> Any:
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None

    def __hash__(self) -> int:  # feedparser's dictionaries are hashable; some expectations rely on it
        return id(self)


class _FeedparserNames:
    """What Expect expressions use of the `feedparser` module: its bozo exception classes."""

    class ThingsNobodyCaresAboutButMe(Exception):
        pass

    class CharacterEncodingOverride(ThingsNobodyCaresAboutButMe):
        pass

    class CharacterEncodingUnknown(ThingsNobodyCaresAboutButMe):
        pass

    class NonXMLContentType(ThingsNobodyCaresAboutButMe):
        pass

    class UndeclaredNamespace(Exception):
        pass

    class TributaryWarning(Exception):
        """A warning `tributary parse` printed that has no feedparser counterpart."""

    class TributaryFailure(Exception):
        """`tributary parse` exited with an error."""


# ---------------------------------------------------------------------------------------------------------------
# From JSON Feed to a feedparser-shaped result.


def _parsed_date(text: str | None) -> time.struct_time | None:
    """An RFC 3339 date as feedparser's `*_parsed`: a struct_time in UTC."""
    if not text:
        return None
    try:
        value = datetime.datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=datetime.timezone.utc)
    return value.astimezone(datetime.timezone.utc).utctimetuple()


def _detail(
    value: str, content_type: str, language: str | None, context: tuple[dict, str, str] | None = None
) -> FeedParserDict:
    """A feedparser `*_detail`. `context` is (the `_tributary` holding `languages` and `bases`, the field's name
    there, the base it inherits: the feed's `_tributary.base`, else the URL it was read from): a field's own
    `xml:lang` and `xml:base`, written only where they differ from what the field inherits."""
    detail = FeedParserDict(type=content_type, value=value, language=language)
    if context is not None:
        extension, name, base = context
        own_language = (extension.get("languages") or {}).get(name)
        if own_language is not None:
            detail["language"] = own_language or None  # "" is xml:lang="": no language
        detail["base"] = (extension.get("bases") or {}).get(name) or base
    return detail


def _link(rel: str, href: str, content_type: str | None = None, **extra: Any) -> FeedParserDict:
    link = FeedParserDict(rel=rel, href=href)
    if content_type is not None:
        link["type"] = content_type
    link.update({k: v for k, v in extra.items() if v is not None})
    return link


def _written_links(links: list[dict[str, Any]]) -> list[FeedParserDict]:
    """`_tributary.links` (every Atom link as written) as feedparser's `links`: its type defaults as feedparser's
    does (application/atom+xml for rel="self", text/html otherwise) and its length is a string."""
    written = []
    for link in links:
        rel = link.get("rel") or "alternate"
        default_type = "application/atom+xml" if rel == "self" else "text/html"
        length = link.get("length")
        written.append(
            _link(
                rel,
                link.get("url", ""),
                link.get("type") or default_type,
                title=link.get("title"),
                hreflang=link.get("hreflang"),
                length=None if length is None else str(int(length)),
            )
        )
    return written


def _people(people: list[dict[str, Any]] | None) -> list[FeedParserDict]:
    """JSON Feed authors ({name, url, _email}) as feedparser's people ({name, email, href})."""
    details = []
    for person in people or []:
        detail = FeedParserDict()
        if person.get("name"):
            detail["name"] = person["name"]
        if person.get("_email"):
            detail["email"] = person["_email"]
        if person.get("url"):
            detail["href"] = person["url"]
        if detail:
            details.append(detail)
    return details


def _authors(people: list[dict[str, Any]] | None, target: FeedParserDict) -> None:
    """`authors`, `author_detail` ({name, email, href}) and `author` ("name (email)", as feedparser builds it)."""
    details = _people(people)
    if not details:
        return
    target["authors"] = details
    target["author_detail"] = details[0]
    if _person_string(details[0]):
        target["author"] = _person_string(details[0])


def _person_string(detail: FeedParserDict) -> str | None:
    """A person as feedparser writes one in a string: "name (email)", or whichever of the two there is."""
    name, email = detail.get("name"), detail.get("email")
    return f"{name} ({email})" if name and email else name or email


def _publisher(extension: dict[str, Any], target: FeedParserDict) -> None:
    """`publisher_detail` and `publisher` from `_tributary.publisher`, for a feed or an entry."""
    detail = _people([extension["publisher"]]) if extension.get("publisher") else []
    if detail:
        target["publisher_detail"] = detail[0]
        target["publisher"] = _person_string(detail[0])


def _dates(item: dict[str, Any], target: FeedParserDict) -> None:
    for ours, theirs in (("date_published", "published"), ("date_modified", "updated")):
        if item.get(ours):
            target[theirs] = item[ours]
            target[theirs + "_parsed"] = _parsed_date(item[ours])


def build_feed(doc: dict[str, Any], document_base: str) -> FeedParserDict:
    """The `feed` dictionary from the JSON Feed's top level; `document_base` is the URL it was read from."""
    feed = FeedParserDict()
    language = doc.get("language")
    extension = doc.get("_tributary") or {}
    base = extension.get("base") or document_base
    if language:
        feed["language"] = language
    if doc.get("title"):  # JSON Feed requires a title; parse writes "" when the feed has none
        feed["title"] = doc["title"]
        feed["title_detail"] = _detail(doc["title"], "text/plain", language, (extension, "title", base))
    links = []
    if doc.get("home_page_url"):
        feed["link"] = doc["home_page_url"]
        links.append(_link("alternate", doc["home_page_url"], "text/html"))
    if doc.get("feed_url"):
        links.append(_link("self", doc["feed_url"], "application/atom+xml"))
    if links:
        feed["links"] = links
    if (doc.get("_tributary") or {}).get("links"):
        feed["links"] = _written_links(doc["_tributary"]["links"])
    html = (doc.get("_tributary") or {}).get("description_html")
    if html is not None:  # the description as the feed wrote it in HTML, sanitized
        feed["subtitle"] = html
        feed["subtitle_detail"] = _detail(html, "text/html", language, (extension, "description", base))
    elif doc.get("description") is not None:
        feed["subtitle"] = doc["description"]
        feed["subtitle_detail"] = _detail(doc["description"], "text/plain", language, (extension, "description", base))
    if doc.get("icon"):
        feed["image"] = FeedParserDict(href=doc["icon"])
    # An Atom feed's icon is the JSON Feed favicon, its logo the JSON Feed icon.
    if doc.get("favicon"):
        feed["icon"] = doc["favicon"]
    if doc.get("icon") and (doc.get("_tributary") or {}).get("format", "").startswith("atom"):
        if doc["icon"] != doc.get("favicon"):
            feed["logo"] = doc["icon"]
    _authors(doc.get("authors"), feed)
    _dates(doc, feed)
    # What JSON Feed has no member for, parse writes in the feed's `_tributary` object.
    extension = doc.get("_tributary") or {}
    if extension.get("published"):
        feed["published"] = extension["published"]
        feed["published_parsed"] = _parsed_date(extension["published"])
    if extension.get("updated"):
        feed["updated"] = extension["updated"]
        feed["updated_parsed"] = _parsed_date(extension["updated"])
    if extension.get("id"):
        feed["id"] = extension["id"]
    # Dublin Core's created and the period of dcterms:valid (feedparser's `validity_start`, `validity_end`).
    for key, name in (("created", "created"), ("valid_start", "validity_start"), ("valid_end", "validity_end")):
        if extension.get(key):
            feed[name] = extension[key]
            feed[f"{name}_parsed"] = _parsed_date(extension[key])
    if extension.get("generator"):
        feed["generator"] = extension["generator"]
        detail = FeedParserDict(name=extension["generator"])
        if extension.get("generator_version"):
            detail["version"] = extension["generator_version"]
        if extension.get("generator_url"):
            detail["href"] = detail["url"] = extension["generator_url"]
        feed["generator_detail"] = detail
    if extension.get("tags"):
        feed["tags"] = [FeedParserDict(term=tag, scheme=None, label=None) for tag in extension["tags"]]
    if extension.get("categories"):
        # Categories with a scheme or label are written whole in `_tributary.categories`: they are the tags.
        feed["tags"] = [
            FeedParserDict(term=c.get("term"), scheme=c.get("scheme"), label=c.get("label"))
            for c in extension["categories"]
        ]
    if extension.get("contributors"):
        feed["contributors"] = _people(extension["contributors"])
    # iTunes flags as written, read with feedparser's rules: block is 1 only for "yes"; explicit is True for
    # "yes", False for "clean" and None for anything else.
    _itunes_flags(extension, feed)
    _publisher(extension, feed)
    if extension.get("rights_html"):
        feed["rights"] = extension["rights_html"]
        feed["rights_detail"] = _detail(extension["rights_html"], "text/html", language, (extension, "rights", base))
    elif extension.get("rights"):
        feed["rights"] = extension["rights"]
        feed["rights_detail"] = _detail(extension["rights"], "text/plain", language, (extension, "rights", base))
    # Atom 0.3 `info`, and what an RSS channel tells aggregators (`_tributary` ttl, docs, cloud, text_input and the
    # image's details), with feedparser's key names.
    if extension.get("info_html"):
        feed["info"] = extension["info_html"]
        feed["info_detail"] = _detail(extension["info_html"], "text/html", language, (extension, "info", base))
    elif extension.get("info") is not None:
        feed["info"] = extension["info"]
        feed["info_detail"] = _detail(extension["info"], "text/plain", language, (extension, "info", base))
    if extension.get("ttl") is not None:
        feed["ttl"] = str(int(extension["ttl"]))
    if extension.get("docs"):
        feed["docs"] = extension["docs"]
    if extension.get("cloud"):
        feed["cloud"] = FeedParserDict({k.lower(): v for k, v in extension["cloud"].items()})
    if extension.get("text_input"):
        feed["textinput"] = FeedParserDict(extension["text_input"])
    if extension.get("image"):
        image = feed.get("image") or FeedParserDict()
        for key, value in extension["image"].items():
            image[key] = int(value) if key in ("width", "height") else value
        feed["image"] = image
    return feed


# feedparser's `version` for each of parse's `_tributary.format` values.
VERSIONS = {
    "rss-0.90": "rss090",
    "rss-0.91": "rss091u",
    "rss-0.92": "rss092",
    "rss-0.93": "rss093",
    "rss-0.94": "rss094",
    "rss": "rss",
    "rss-1.0": "rss10",
    "rss-2.0": "rss20",
    "atom-0.3": "atom03",
    "atom-1.0": "atom10",
    "cdf": "cdf",
}


def _itunes_flags(extension: dict[str, Any], target: FeedParserDict) -> None:
    """feedparser's `itunes_block` (1 for exactly `yes`, else 0) and `itunes_explicit` (True for exactly `yes`,
    False for `clean`, else None), its own reading of the values `_tributary` passes on as written."""
    if extension.get("itunes_block") is not None:
        target["itunes_block"] = 1 if extension["itunes_block"] == "yes" else 0
    if extension.get("itunes_explicit") is not None:
        value = extension["itunes_explicit"]
        target["itunes_explicit"] = True if value == "yes" else False if value == "clean" else None


def _chapters(chapters: dict[str, Any]) -> FeedParserDict:
    """`_tributary.chapters` (Podlove Simple Chapters, each start as written) as feedparser's `psc_chapters`, with
    its reading of each start (`HH:MM:SS.mmm`, hours optional) as a `timedelta`."""
    result = FeedParserDict(chapters=[])
    if chapters.get("version"):
        result["version"] = chapters["version"]
    for chapter in chapters.get("chapters") or []:
        entry = FeedParserDict(chapter)
        match = re.match(r"^((\d{2}):)?(\d{2}):(\d{2})(\.(\d{3}))?$", chapter.get("start", ""))
        if match:
            _, hours, minutes, seconds, _, millis = match.groups()
            entry["start_parsed"] = datetime.timedelta(
                0, int(hours or 0) * 3600 + int(minutes) * 60 + int(seconds), int(millis or 0) * 1000
            )
        else:
            entry["start_parsed"] = None
        result["chapters"].append(entry)
    return result


def build_entry(item: dict[str, Any], feed_language: str | None, feed_base: str) -> FeedParserDict:
    """One `entries[]` dictionary from a JSON Feed item; `feed_base` is what its fields' bases default to."""
    entry = FeedParserDict()
    extension = item.get("_tributary") or {}
    language = item.get("language") or feed_language
    if item.get("language"):
        entry["language"] = item["language"]
    if extension.get("guid"):  # the item has a guid or Atom id: its JSON `id` (resolved when relative)
        entry["id"] = item.get("id") or extension["guid"]
    links = []
    if item.get("url"):
        entry["link"] = item["url"]
        links.append(_link("alternate", item["url"], "text/html"))
    if item.get("external_url"):
        links.append(_link("related", item["external_url"], "text/html"))
    for attachment in item.get("attachments") or []:
        if not attachment.get("url"):
            continue
        size = attachment.get("size_in_bytes")
        links.append(
            _link(
                "enclosure",
                attachment["url"],
                attachment.get("mime_type"),
                length=None if size is None else str(size),
                title=attachment.get("title"),
            )
        )
    if links:
        entry["links"] = links
    if extension.get("links"):
        entry["links"] = _written_links(extension["links"])
    if item.get("title") is not None:
        entry["title"] = item["title"]
        entry["title_detail"] = _detail(item["title"], "text/plain", language, (extension, "title", feed_base))
    content = []
    if item.get("content_html") is not None:
        content.append(_detail(item["content_html"], "text/html", language, (extension, "content", feed_base)))
    # JSON Feed requires content_html or content_text: parse writes content_text "" for an item with neither, so
    # an empty content_text is read as no content (as an empty feed title is read as no title).
    if item.get("content_text"):
        content.append(_detail(item["content_text"], "text/plain", language, (extension, "content", feed_base)))
    if content:
        entry["content"] = content
    # feedparser's `summary` is RSS <description> or Atom <summary>; parse puts a lone description (or summary)
    # in content_html (content_text) and keeps `summary` for a description beside content:encoded.
    if item.get("summary") is not None:
        entry["summary"] = item["summary"]
        entry["summary_detail"] = _detail(item["summary"], "text/plain", language, (extension, "summary", feed_base))
    elif content:
        entry["summary"] = content[0]["value"]
        entry["summary_detail"] = content[0]
    _dates(item, entry)
    _authors(item.get("authors"), entry)
    tags = [FeedParserDict(term=tag, scheme=None, label=None) for tag in item.get("tags") or [] if tag]
    if extension.get("categories"):
        # Categories with a scheme or label are written whole in `_tributary.categories`: they are the tags.
        tags = [
            FeedParserDict(term=c.get("term"), scheme=c.get("scheme"), label=c.get("label"))
            for c in extension["categories"]
        ]
    if tags:
        entry["tags"] = tags
    if item.get("image"):
        entry["image"] = FeedParserDict(href=item["image"])
    if extension.get("contributors"):
        entry["contributors"] = _people(extension["contributors"])
    # feedparser's guidislink: the guid (or Atom id) is the entry's link, which parse writes as a `url` equal to
    # the item's id.
    if extension.get("guid"):
        entry["guidislink"] = bool(item.get("url")) and item.get("url") == item.get("id")
    # Dublin Core's created, RSS expirationDate (feedparser's `expired`), the licence and the publisher.
    for key, name in (("created", "created"), ("expires", "expired")):
        if extension.get(key):
            entry[name] = extension[key]
            entry[f"{name}_parsed"] = _parsed_date(extension[key])
    if extension.get("license"):  # feedparser keeps a licence as a link with rel="license"
        entry.setdefault("links", []).append(FeedParserDict(rel="license", href=extension["license"]))
    _publisher(extension, entry)
    # An episode's itunes:duration as written and its itunes:subtitle (feedparser's `subtitle`).
    if extension.get("itunes_duration"):
        entry["itunes_duration"] = extension["itunes_duration"]
    if extension.get("itunes_subtitle"):
        entry["subtitle"] = extension["itunes_subtitle"]
        entry["subtitle_detail"] = _detail(extension["itunes_subtitle"], "text/plain", language)
    if extension.get("chapters"):
        entry["psc_chapters"] = _chapters(extension["chapters"])
    if extension.get("comments"):
        entry["comments"] = extension["comments"]
    if extension.get("where"):
        # feedparser's `where` is the same GeoJSON geometry, with tuples for positions and the polygon's rings.
        where = extension["where"]
        kind, coordinates = where.get("type"), where.get("coordinates")
        if kind == "Point":
            coordinates = tuple(coordinates)
        elif kind == "Polygon":
            coordinates = tuple([tuple(p) for p in ring] for ring in coordinates)
        elif kind == "Box":
            coordinates = tuple(tuple(p) for p in coordinates)
        else:
            coordinates = [tuple(p) for p in coordinates]
        entry["where"] = FeedParserDict(type=kind, coordinates=coordinates)
    if extension.get("comments_feed"):
        entry["wfw_commentrss"] = extension["comments_feed"]
    if extension.get("comments_api"):
        entry["wfw_comment"] = extension["comments_api"]
    _itunes_flags(extension, entry)
    if extension.get("rights_html"):  # the rights as the feed wrote them in HTML, sanitized
        entry["rights"] = extension["rights_html"]
        entry["rights_detail"] = _detail(extension["rights_html"], "text/html", language)
    elif extension.get("rights"):
        entry["rights"] = extension["rights"]
        entry["rights_detail"] = _detail(extension["rights"], "text/plain", language)
    origin = extension.get("origin")
    if origin:
        # RSS <source url="..."> is feedparser's source.href, an Atom <source>'s alternate link its source.link:
        # the JSON says only "url", so both names are given.
        source = FeedParserDict()
        if origin.get("title") is not None:
            source["title"] = origin["title"]
            source["title_detail"] = _detail(origin["title"], "text/plain", None)
        if origin.get("url"):
            source["href"] = origin["url"]
            source["link"] = origin["url"]
            source["links"] = [_link("alternate", origin["url"], "text/html")]
        # An Atom <source>'s own header, as feedparser keeps it.
        for key in ("id", "icon", "logo"):
            if origin.get(key):
                source[key] = origin[key]
        for key in ("subtitle", "rights"):
            if origin.get(f"{key}_html"):  # written with markup: kept as sanitized HTML, as the feed's own
                source[key] = origin[f"{key}_html"]
                source[f"{key}_detail"] = _detail(origin[f"{key}_html"], "text/html", None)
            elif origin.get(key) is not None:
                source[key] = origin[key]
                source[f"{key}_detail"] = _detail(origin[key], "text/plain", None)
        if origin.get("updated"):
            source["updated"] = origin["updated"]
            source["updated_parsed"] = _parsed_date(origin["updated"])
        if origin.get("generator"):
            source["generator"] = origin["generator"]
            detail = FeedParserDict(name=origin["generator"])
            if origin.get("generator_version"):
                detail["version"] = origin["generator_version"]
            if origin.get("generator_url"):
                detail["href"] = detail["url"] = origin["generator_url"]
            source["generator_detail"] = detail
        _authors(origin.get("authors"), source)
        if origin.get("contributors"):
            source["contributors"] = _people(origin["contributors"])
        if origin.get("tags"):
            source["tags"] = [FeedParserDict(term=tag, scheme=None, label=None) for tag in origin["tags"]]
        if origin.get("categories"):  # written whole when one has a scheme or label, as an entry's
            source["tags"] = [
                FeedParserDict(term=c.get("term"), scheme=c.get("scheme"), label=c.get("label"))
                for c in origin["categories"]
            ]
        if origin.get("links"):  # every link as written, when they say more than its address
            source["links"] = _written_links(origin["links"])
        entry["source"] = source
    return entry


def build_result(
    doc: dict[str, Any] | None, warnings: list[str], returncode: int, document_base: str = ""
) -> FeedParserDict:
    """feedparser's result from what `tributary parse` printed. `bozo` is set when parse reported a warning (it
    recovered from something) or failed; `encoding` and `version` come from the feed's `_tributary` object;
    `namespaces` and the HTTP keys (`headers`, `etag`, `status`...) are absent: the JSON Feed does not carry
    them."""
    result = FeedParserDict()
    result["bozo"] = bool(warnings) or returncode != 0
    if returncode != 0:
        result["bozo_exception"] = _FeedparserNames.TributaryFailure(warnings[-1] if warnings else "")
    elif warnings:
        first = warnings[0]
        kind = (
            _FeedparserNames.CharacterEncodingOverride
            if first.startswith("encoding:")
            else _FeedparserNames.TributaryWarning
        )
        result["bozo_exception"] = kind(first)
    doc = doc or {}
    feed = build_feed(doc, document_base)
    feed_base = (doc.get("_tributary") or {}).get("base") or document_base
    result["feed"] = feed
    version = VERSIONS.get((doc.get("_tributary") or {}).get("format", ""))
    if version:
        result["version"] = version
    encoding = (doc.get("_tributary") or {}).get("encoding")
    if encoding:
        result["encoding"] = encoding
    result["entries"] = [build_entry(item, feed.get("language"), feed_base) for item in doc.get("items") or []]
    return result


# ---------------------------------------------------------------------------------------------------------------
# Reading the suite.

DESC_RE = re.compile(r"Description:\s*(.*?)\s*Expect:\s*(.*)\s*-->")
HEADER_RE = re.compile(r"^Header:\s+([^:]+):(.*)$", re.MULTILINE)
SKIP_RE = re.compile(r"SkipUnless:\s*(.*?)\n")


def decode_test_file(data: bytes) -> str:
    """The test file as text, its encoding told by its first bytes (feedparser's tests/helpers.py does the same;
    its older runner also knew the EBCDIC files)."""
    boms = (
        (b"\x4c\x6f\xa7\x94", 0, "cp037"),
        (b"\x00\x00\xfe\xff", 0, "utf-32be"),
        (b"\xff\xfe\x00\x00", 0, "utf-32le"),
        (b"\x00\x00\x00\x3c", 0, "utf-32be"),
        (b"\x3c\x00\x00\x00", 0, "utf-32le"),
        (b"\x00\x3c\x00\x3f", 0, "utf-16be"),
        (b"\x3c\x00\x3f\x00", 0, "utf-16le"),
    )
    for prefix, skip, codec in boms:
        if data.startswith(prefix):
            return data[skip:].decode(codec, errors="ignore")
    if data[:2] == b"\xfe\xff" and data[2:4] != b"\x00\x00":
        return data[2:].decode("utf-16be", errors="ignore")
    if data[:2] == b"\xff\xfe" and data[2:4] != b"\x00\x00":
        return data[2:].decode("utf-16le", errors="ignore")
    if data[:3] == b"\xef\xbb\xbf":
        return data[3:].decode("utf-8", errors="ignore")
    return data.decode("utf-8", errors="ignore")


@dataclass
class Case:
    rel: str  # path inside tests/, with "/"
    path: Path
    group: str
    description: str
    expect: str
    headers: list[tuple[str, str]]
    is_http: bool
    skip_unless: str | None


def group_of(rel: str) -> str:
    parts = rel.split("/")
    if len(parts) > 2:
        return f"{parts[0]}/{parts[1]}"
    return parts[0]


def load_cases(tests_dir: Path) -> tuple[list[Case], list[str]]:
    cases: list[Case] = []
    problems: list[str] = []
    for folder in SUITE_FOLDERS:
        root = tests_dir / folder
        if not root.is_dir():
            continue
        pattern = "*.json" if folder == "json" else "*.xml"
        for path in sorted(root.rglob(pattern)):
            rel = path.relative_to(tests_dir).as_posix()
            text = decode_test_file(path.read_bytes())
            found = DESC_RE.search(text)
            if not found:
                problems.append(f"{rel}: no Description/Expect comment")
                continue
            skip = SKIP_RE.search(text)
            cases.append(
                Case(
                    rel=rel,
                    path=path,
                    group=group_of(rel),
                    description=found.group(1).strip(),
                    expect=found.group(2).strip(),
                    headers=[(k.strip(), v.strip()) for k, v in HEADER_RE.findall(text)],
                    # feedparser's runners fetch a file over HTTP when "http" is anywhere in its path
                    is_http="http" in rel,
                    skip_unless=skip.group(1).strip() if skip else None,
                )
            )
    return cases, problems


def required_bozo(case: Case) -> bool | None:
    """The bozo value feedparser's own runner asserts besides the Expect expression (tests/test_*.py):
    well-formed cases must not be bozo, ill-formed cases fetched over HTTP must be. The entities cases are run
    twice there, bozo with the strict parser and not with the loose one, so nothing is asserted for them."""
    if case.group.startswith("wellformed"):
        return False
    if case.group.startswith("illformed") and case.is_http:
        return True
    return None


# ---------------------------------------------------------------------------------------------------------------
# Running `tributary parse`.


@dataclass
class ParseOptions:
    """The options of `tributary parse` that HTTP headers can be passed through, read from its --help."""

    base_url: str | None = None
    content_type: str | None = None
    charset: str | None = None
    content_language: str | None = None

    @classmethod
    def detect(cls, binary: str) -> "ParseOptions":
        text = subprocess.run(
            [binary, "parse", "--help"], capture_output=True, text=True, timeout=60
        ).stdout
        flags = set(re.findall(r"(--[a-z][a-z0-9-]*)", text))
        if "--base-url" not in flags:
            # Every parse has had --base-url: no options means the help went elsewhere (or parse is broken), and
            # every HTTP case would fail for a reason that is not the parser's.
            raise SystemExit(f"{binary} parse --help printed no --base-url on standard output; is it a tributary?")

        def first(*names: str) -> str | None:
            return next((name for name in names if name in flags), None)

        return cls(
            base_url=first("--base-url"),
            content_type=first("--content-type"),
            charset=first("--http-charset", "--charset"),
            content_language=first("--content-language", "--language"),
        )

    def describe(self) -> str:
        known = {
            "Content-Location": self.base_url,
            "Content-Type": self.content_type or (self.charset and f"{self.charset} (charset only)"),
            "Content-Language": self.content_language,
        }
        return ", ".join(f"{k} -> {v or 'no option'}" for k, v in known.items())


XML_MEDIA_TYPE = re.compile(r"^application/(xml|xml-dtd|xml-external-parsed-entity|[^;/]+\+xml)$")


def plan(case: Case, options: ParseOptions) -> tuple[list[str], list[str]]:
    """The arguments for `parse` (the feed goes on standard input, so that no file URL becomes its base, as
    feedparser's runner parses the text with no URL) and the headers that could not be passed on."""
    if not case.is_http:
        return [], []
    url = HTTP_ORIGIN + posixpath.normpath("tests/" + case.rel)
    base = url
    args: list[str] = []
    unmapped: list[str] = []
    for name, value in case.headers:
        lname = name.lower()
        if lname == "content-location" and options.base_url:
            base = urllib.parse.urljoin(url, value)
        elif lname == "content-type":
            media, _, params = value.partition(";")
            media = media.strip().lower()
            charset = re.search(r"charset\s*=\s*\"?([^\";\s]+)", params, re.IGNORECASE)
            if options.content_type:
                args += [options.content_type, value]
            elif XML_MEDIA_TYPE.match(media) and not charset:
                pass  # RFC 7303: the document's own declaration decides, as when parse reads a file
            elif options.charset and charset and (XML_MEDIA_TYPE.match(media) or media in ("text/xml",)):
                args += [options.charset, charset.group(1)]
            else:
                unmapped.append(f"{name}: {value}")
        elif lname == "content-language" and options.content_language:
            args += [options.content_language, value]
        else:
            unmapped.append(f"{name}: {value}")
    if options.base_url:
        args += [options.base_url, base]
    else:
        unmapped.append(f"(request URL {url})")
    return args, unmapped


@dataclass
class Outcome:
    case: Case
    status: str  # pass, fail, error, unmapped
    reason: str = ""
    returncode: int | None = None
    warnings: list[str] = field(default_factory=list)
    stdout: str = ""
    result: FeedParserDict | None = None
    unmapped: list[str] = field(default_factory=list)
    args: list[str] = field(default_factory=list)
    expect_ok: bool | None = None
    differ_reason: str | None = None


EVAL_GLOBALS = {"datetime": datetime, "time": time, "feedparser": _FeedparserNames, "__builtins__": builtins}


def run_case(case: Case, binary: str, options: ParseOptions, timeout: float) -> Outcome:
    args, unmapped = plan(case, options)
    outcome = Outcome(case=case, status="fail", unmapped=unmapped, args=args)
    try:
        proc = subprocess.run(
            [binary, "parse", *args, "-"],
            input=case.path.read_bytes(),
            capture_output=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        outcome.status, outcome.reason = "error", f"parse timed out after {timeout:.0f} s"
        return outcome
    outcome.returncode = proc.returncode
    stderr = proc.stderr.decode("utf-8", errors="replace")
    outcome.stdout = proc.stdout.decode("utf-8", errors="replace")
    for line in stderr.splitlines():
        if not line.startswith("tributary: "):
            continue
        _, _, message = line[len("tributary: "):].partition(": ")  # drop the "<stdin>: " prefix
        outcome.warnings.append(message.removeprefix("warning: "))
    if proc.returncode not in (0, 1):
        outcome.status = "error"
        outcome.reason = f"parse exited with {proc.returncode}: {stderr.strip()[-400:]}"
        return outcome
    doc = None
    if outcome.stdout.strip():
        try:
            doc = json.loads(outcome.stdout)
        except json.JSONDecodeError as error:
            outcome.status, outcome.reason = "error", f"output is not JSON: {error}"
            return outcome
    base_arg = args[args.index(options.base_url) + 1] if options.base_url and options.base_url in args else ""
    result = build_result(doc, outcome.warnings, proc.returncode, base_arg)
    outcome.result = result
    try:
        ok = bool(eval(case.expect, dict(EVAL_GLOBALS), result))  # noqa: S307 - feedparser's own test data
        reason = "" if ok else "expectation is false"
    except Exception as error:  # noqa: BLE001 - any failure of the expression is a failed case
        ok, reason = False, f"{type(error).__name__}: {error}"
    outcome.expect_ok = ok
    want_bozo = required_bozo(case)
    if ok and want_bozo is not None and bool(result["bozo"]) != want_bozo:
        ok = False
        reason = (
            f"bozo is {bool(result['bozo'])}, the runner requires {want_bozo}"
            + (f" (warnings: {'; '.join(outcome.warnings)[:300]})" if outcome.warnings else "")
        )
    if ok and unmapped:
        outcome.status = "unmapped"
        outcome.reason = "passes, but needs HTTP headers parse has no option for: " + "; ".join(unmapped)
    elif ok:
        outcome.status = "pass"
    elif unmapped:
        outcome.status = "unmapped"
        outcome.reason = f"{reason}; HTTP headers not passed: " + "; ".join(unmapped)
    else:
        outcome.reason = reason
    return outcome


# ---------------------------------------------------------------------------------------------------------------
# Where the tests come from.


def locate_tests(directory: Path) -> Path:
    for candidate in (directory, directory / "tests"):
        if any((candidate / folder).is_dir() for folder in SUITE_FOLDERS):
            return candidate
    sys.exit(f"feedparser_suite: no wellformed/, illformed/, ... under {directory} (or its tests/)")


def download_sdist(cache: Path) -> Path:
    """feedparser's sdist from PyPI (it carries tests/), unpacked under `cache` once."""
    target = cache / f"feedparser-{FEEDPARSER_VERSION}"
    if (target / "tests").is_dir():
        return target / "tests"
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="feedparser-sdist-") as temporary:
        requirements = Path(temporary) / "requirements.txt"
        requirements.write_text(f"feedparser=={FEEDPARSER_VERSION} --hash=sha256:{FEEDPARSER_SDIST_SHA256}\n")
        command = [
            sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
            "--require-hashes", "-r", str(requirements), "-d", temporary,
        ]
        print(f"feedparser_suite: downloading feedparser {FEEDPARSER_VERSION} (sdist) with pip", file=sys.stderr)
        subprocess.run(command, check=True)
        archive = next(Path(temporary).glob("feedparser-*.tar.gz"))
        with tarfile.open(archive) as tar:
            members = [
                m for m in tar.getmembers()
                if "/tests/" in m.name and (m.isfile() or m.isdir())
                and not m.name.startswith("/") and ".." not in m.name.split("/")
            ]
            try:
                tar.extractall(Path(temporary) / "x", members=members, filter="data")
            except TypeError:  # Python before 3.11.4 has no extraction filters; the members were checked above
                tar.extractall(Path(temporary) / "x", members=members)
        unpacked = Path(temporary) / "x" / f"feedparser-{FEEDPARSER_VERSION}"
        if not (unpacked / "tests").is_dir():
            sys.exit("feedparser_suite: the sdist has no tests/ directory; use --feedparser-tests (see README.md)")
        staging = cache / f".{target.name}.partial"
        shutil.rmtree(staging, ignore_errors=True)
        shutil.copytree(unpacked, staging)
        staging.rename(target)
    return target / "tests"


def default_binary() -> str:
    built = REPO_ROOT / ".build" / "debug" / "tributary"
    if built.exists():
        return str(built)
    return shutil.which("tributary") or str(built)


# ---------------------------------------------------------------------------------------------------------------
# Deliberate differences.


def read_differences(path: Path) -> dict[str, str]:
    """`PATH | REASON` a line; `#` starts a comment line. PATH is relative to feedparser's tests/."""
    entries: dict[str, str] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        case, bar, reason = line.partition("|")
        case, reason = case.strip(), reason.strip()
        if not bar or not case or not reason:
            sys.exit(f"feedparser_suite: {path}:{number}: expected 'PATH | REASON'")
        if case in entries:
            sys.exit(f"feedparser_suite: {path}:{number}: {case} is listed twice")
        entries[case] = reason
    return entries


# ---------------------------------------------------------------------------------------------------------------
# Reporting.

REFERENCE_RE = re.compile(r"\b(feed|entries\[(\d+)\])\s*(?:\[\s*u?['\"]([^'\"]+)['\"]\s*\]|\.([A-Za-z_]+))")
TOP_NAMES_RE = re.compile(r"\b(bozo|encoding|version|namespaces|headers|etag|modified|status|href)\b")


def _short(value: Any, limit: int = 400) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def snippet(outcome: Outcome) -> list[str]:
    """The parts of our result that the expectation reads, then the warnings and the start of the JSON."""
    lines: list[str] = []
    result = outcome.result
    if result is not None:
        seen = set()
        for match in REFERENCE_RE.finditer(outcome.case.expect):
            root, index, key = match.group(1), match.group(2), match.group(3) or match.group(4)
            if (root, key) in seen or key in ("get", "has_key"):
                continue
            seen.add((root, key))
            if index is None:
                value = result["feed"].get(key, "<absent>")
                lines.append(f"ours: feed[{key!r}] = {_short(value)}")
            else:
                entries = result["entries"]
                i = int(index)
                value = entries[i].get(key, "<absent>") if i < len(entries) else f"<no entries[{i}]>"
                lines.append(f"ours: entries[{i}][{key!r}] = {_short(value)}")
        for name in sorted(set(TOP_NAMES_RE.findall(outcome.case.expect))):
            lines.append(f"ours: {name} = {_short(result.get(name, '<absent>'))}")
    if outcome.warnings:
        lines.append("parse said: " + " | ".join(outcome.warnings)[:600])
    if outcome.stdout:
        lines.append("json: " + " ".join(outcome.stdout.split())[:700])
    return lines


@dataclass
class Tally:
    total: int = 0
    passed: int = 0
    failed: int = 0  # includes errors and unmapped
    unmapped: int = 0
    differ: int = 0

    def add(self, outcome: Outcome) -> None:
        self.total += 1
        if outcome.status == "pass":
            self.passed += 1
        elif outcome.differ_reason is not None:
            self.differ += 1
        else:
            self.failed += 1
            if outcome.status == "unmapped":
                self.unmapped += 1

    def as_json(self) -> dict[str, Any]:
        counted = self.total - self.differ
        return {
            "total": self.total,
            "pass": self.passed,
            "fail": self.failed,
            "fail_unmapped_http": self.unmapped,
            "deliberate_difference": self.differ,
            "pass_rate": round(self.passed / self.total, 4) if self.total else None,
            "pass_rate_excluding_differences": round(self.passed / counted, 4) if counted else None,
        }


def tally(outcomes: list[Outcome]) -> dict[str, Tally]:
    tallies: dict[str, Tally] = {}
    for outcome in outcomes:
        tallies.setdefault(outcome.case.group, Tally()).add(outcome)
    groups = sorted(tallies)
    overall, outside = Tally(), Tally()
    for outcome in outcomes:
        overall.add(outcome)
        if outcome.case.group != "wellformed/sanitize":
            outside.add(outcome)
    ordered = {group: tallies[group] for group in groups}
    ordered["overall"] = overall
    ordered["overall outside wellformed/sanitize"] = outside
    return ordered


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def table(tallies: dict[str, Tally]) -> str:
    rows = ["| folder | cases | pass | fail | of which HTTP headers unmapped | deliberate | pass rate | "
            "pass rate excl. deliberate |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for group, t in tallies.items():
        name = f"**{group}**" if group.startswith("overall") else group
        rows.append(
            f"| {name} | {t.total} | {t.passed} | {t.failed} | {t.unmapped} | {t.differ} | "
            f"{percent(t.passed, t.total)} | {percent(t.passed, t.total - t.differ)} |"
        )
    return "\n".join(rows)


def write_failures(path: Path, outcomes: list[Outcome], header: str) -> None:
    with path.open("w", encoding="utf-8") as out:
        out.write(header + "\n\n")
        for title, keep in (
            ("FAILURES", lambda o: o.status != "pass" and o.differ_reason is None),
            ("DELIBERATE DIFFERENCES (listed in the differences file)", lambda o: o.differ_reason is not None),
        ):
            chosen = [o for o in outcomes if keep(o)]
            out.write(f"==== {title}: {len(chosen)}\n\n")
            for o in chosen:
                out.write(f"--- {o.case.rel}  [{o.status}]\n")
                out.write(f"description: {o.case.description}\n")
                out.write(f"expect: {o.case.expect}\n")
                if o.case.headers:
                    out.write("headers: " + "; ".join(f"{k}: {v}" for k, v in o.case.headers) + "\n")
                if o.args:
                    out.write("parse options: " + " ".join(o.args) + "\n")
                if o.differ_reason is not None:
                    out.write(f"deliberate: {o.differ_reason}\n")
                out.write(f"why: {o.reason}\n")
                for line in snippet(o):
                    out.write(line + "\n")
                out.write("\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--feedparser-tests", type=Path, metavar="DIR",
                        help="feedparser's tests/ (or a directory holding it); default: the sdist from PyPI")
    parser.add_argument("--cache-dir", type=Path,
                        default=Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
                        / "tributary-conformance",
                        help="where the downloaded sdist is unpacked (default: %(default)s)")
    parser.add_argument("--binary", default=None, help="the tributary executable (default: .build/debug/tributary)")
    parser.add_argument("--differ", type=Path, default=DEFAULT_DIFFERENCES, metavar="FILE",
                        help="the cases we deliberately differ on (default: %(default)s); 'none' for no list")
    parser.add_argument("--failures", type=Path, metavar="FILE",
                        help="write every failing case (and every deliberate difference) here")
    parser.add_argument("--json", action="store_true", help="print the totals as JSON instead of a table")
    parser.add_argument("--only", metavar="GLOB", action="append",
                        help="run only cases whose path inside tests/ matches (repeatable; the report says so)")
    parser.add_argument("--jobs", type=int, default=2, help="parse processes at once (default: %(default)s)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per parse (default: %(default)s)")
    arguments = parser.parse_args(argv)

    binary = arguments.binary or default_binary()
    if not Path(binary).exists() and not shutil.which(binary):
        sys.exit(f"feedparser_suite: no tributary executable at {binary} (build it, or pass --binary)")
    if arguments.feedparser_tests:
        tests_dir, source = locate_tests(arguments.feedparser_tests), str(arguments.feedparser_tests)
    else:
        tests_dir, source = download_sdist(arguments.cache_dir), f"feedparser {FEEDPARSER_VERSION} sdist (PyPI)"
    cases, problems = load_cases(tests_dir)
    for problem in problems:
        print(f"feedparser_suite: skipped {problem}", file=sys.stderr)
    if arguments.only:
        cases = [c for c in cases if any(fnmatch.fnmatch(c.rel, pattern) for pattern in arguments.only)]
    differences: dict[str, str] = {}
    if str(arguments.differ) != "none":
        differences = read_differences(arguments.differ)
        known = {c.rel for c in load_cases(tests_dir)[0]}
        for rel in sorted(set(differences) - known):
            print(f"feedparser_suite: {arguments.differ}: {rel} is not a case of this suite", file=sys.stderr)

    options = ParseOptions.detect(binary)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, arguments.jobs)) as pool:
        outcomes = list(pool.map(lambda c: run_case(c, binary, options, arguments.timeout), cases))
    stale = []
    for outcome in outcomes:
        reason = differences.get(outcome.case.rel)
        if reason is None:
            continue
        if outcome.status == "pass":
            stale.append(outcome.case.rel)
        else:
            outcome.differ_reason = reason

    tallies = tally(outcomes)
    header = (
        f"feedparser conformance of {binary}\nsuite: {source} ({tests_dir}); {len(cases)} cases"
        + (f" (only {', '.join(arguments.only)})" if arguments.only else "")
        + f"\nHTTP headers to parse options: {options.describe()}"
    )
    if arguments.failures:
        write_failures(arguments.failures, outcomes, header)
    if arguments.json:
        print(json.dumps({
            "binary": binary,
            "suite": source,
            "only": arguments.only,
            "header_options": options.__dict__,
            "groups": {group: t.as_json() for group, t in tallies.items()},
            "listed_differences_that_pass": stale,
        }, indent=2))
    else:
        print(header + "\n")
        print(table(tallies))
        errors = [o for o in outcomes if o.status == "error"]
        if errors:
            print(f"\n{len(errors)} cases where parse crashed, hung or printed no JSON (counted as failures):")
            for o in errors[:20]:
                print(f"  {o.case.rel}: {o.reason[:200]}")
    for rel in stale:
        print(f"feedparser_suite: listed as a deliberate difference but passes: {rel}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
