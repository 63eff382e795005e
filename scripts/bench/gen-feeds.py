#!/usr/bin/env python3
"""Generate deterministic, Google-News-like benchmark feeds for Tributary's parser benchmarks.

    scripts/bench/gen-feeds.py [--out DIR] [--seed N] [--force] [SPEC ...]

SPEC is KIND:SIZE with KIND `rss` (Google News RSS 2.0) or `atom` (an Atom 1.0 blog feed) and SIZE in decimal
units (`10M` = 10,000,000 bytes, `1G` = 1,000,000,000 bytes). Default specs: rss:10M rss:100M atom:10M.
Files are named `google-news-10MB.xml`, `google-news-1GB.xml`, `atom-10MB.xml`, ... and written to
DIR (default: `.build/bench-feeds` of the repository, never committed). An existing file of the right size is kept
unless --force is given. The same seed always gives byte-identical files. Output is streamed in 1 MiB blocks, so
memory stays flat even for 1 GB.
"""

import argparse
import os
import random
import sys
import zlib
from datetime import datetime, timedelta, timezone

# ---------------------------------------------------------------------------------------------------------------
# Vocabulary

PUBLISHERS_EN = [
    ("Reuters", "https://www.reuters.com"),
    ("The Associated Press", "https://apnews.com"),
    ("BBC", "https://www.bbc.com"),
    ("The New York Times", "https://www.nytimes.com"),
    ("The Washington Post", "https://www.washingtonpost.com"),
    ("CNN", "https://www.cnn.com"),
    ("The Guardian", "https://www.theguardian.com"),
    ("Bloomberg.com", "https://www.bloomberg.com"),
    ("Financial Times", "https://www.ft.com"),
    ("The Verge", "https://www.theverge.com"),
    ("Ars Technica", "https://arstechnica.com"),
    ("NPR", "https://www.npr.org"),
    ("Fox News", "https://www.foxnews.com"),
    ("CNBC", "https://www.cnbc.com"),
    ("Politico", "https://www.politico.com"),
    ("AT&T Newsroom", "https://about.att.com"),
    ("Al Jazeera English", "https://www.aljazeera.com"),
    ("TechCrunch", "https://techcrunch.com"),
]

PUBLISHERS_JA = [
    ("NHKニュース", "https://www3.nhk.or.jp"),
    ("日本経済新聞", "https://www.nikkei.com"),
    ("読売新聞オンライン", "https://www.yomiuri.co.jp"),
    ("朝日新聞デジタル", "https://www.asahi.com"),
    ("毎日新聞", "https://mainichi.jp"),
    ("産経ニュース", "https://www.sankei.com"),
    ("時事通信ニュース", "https://www.jiji.com"),
    ("ITmedia", "https://www.itmedia.co.jp"),
    ("Yahoo!ニュース", "https://news.yahoo.co.jp"),
    ("TBS NEWS DIG", "https://newsdig.tbs.co.jp"),
]

WORDS_EN = (
    "government minister election market shares rally storm warning court ruling company profits record "
    "talks ceasefire summit leaders climate deal tech giant launches new phone chip shortage inflation "
    "rate cut central bank says report finds study scientists discover space mission launch delayed "
    "officials investigate fire crash city council votes plan budget school teachers strike players "
    "team wins final season coach injury fans stadium health vaccine hospital patients data privacy "
    "law passes senate house bill opposition protest police arrest suspect oil prices energy crisis "
    "housing rents workers union wages exports trade tariffs China US EU Japan India Brazil quarter "
    "growth slows surges falls rises amid after before over despite against could would will"
).split()

WORDS_JA = (
    "政府 首相 選挙 株価 上昇 台風 警報 裁判所 判決 企業 決算 過去最高 会談 停戦 首脳 気候 合意 "
    "新型 スマートフォン 半導体 不足 物価 日銀 利下げ 調査 研究 宇宙 打ち上げ 延期 火災 事故 "
    "市議会 予算 学校 教員 選手 優勝 監督 けが 病院 患者 個人情報 法案 成立 野党 抗議 警察 逮捕 "
    "容疑者 原油 価格 エネルギー 住宅 賃金 輸出 関税 中国 米国 欧州 東京 大阪 北海道 沖縄 発表"
).split()

PARTICLES_JA = ["が", "を", "に", "で", "と", "の", "へ", "も"]

LOREM = (
    "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et "
    "dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea "
    "commodo consequat duis aute irure in reprehenderit voluptate velit esse cillum fugiat nulla pariatur "
    "excepteur sint occaecat cupidatat non proident sunt culpa qui officia deserunt mollit anim id est laborum"
).split()

CATEGORIES = [
    "swift", "linux", "performance", "xml", "feeds", "release", "security", "testing", "concurrency",
    "server", "tooling", "c++", "memory", "networking", "design", "community",
]

AUTHORS = [
    ("Ada Lovelace", "https://blog.example.org/authors/ada", "ada@example.org"),
    ("Grace Hopper", "https://blog.example.org/authors/grace", None),
    ("Alan Turing", None, "alan@example.org"),
    ("Hedy Lamarr", "https://blog.example.org/authors/hedy", None),
    ("Katherine Johnson", None, None),
    ("山田 太郎", "https://blog.example.org/authors/yamada", None),
]

DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
TOKEN_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
BASE_TIME = datetime(2026, 11, 22, 5, 41, 40, tzinfo=timezone.utc)


def xml_escape(text):
    """Escapes text for element content (quotes stay raw, as Google News writes them)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def attribute_escape(text):
    """Escapes text for a double-quoted attribute value."""
    return xml_escape(text).replace('"', "&quot;")


def rfc822(moment):
    return "%s, %02d %s %04d %02d:%02d:%02d GMT" % (
        DAYS[moment.weekday()], moment.day, MONTHS[moment.month - 1], moment.year,
        moment.hour, moment.minute, moment.second,
    )


def rfc3339(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


# ---------------------------------------------------------------------------------------------------------------
# Google News RSS 2.0


class GoogleNewsWriter:
    def __init__(self, rng):
        self.rng = rng
        self.moment = BASE_TIME

    def token(self):
        rng = self.rng
        body = "".join(rng.choice(TOKEN_ALPHABET) for _ in range(rng.randint(90, 190)))
        return "CBMi" + body + ("0gF" + "".join(rng.choice(TOKEN_ALPHABET) for _ in range(40)) if rng.random() < 0.3 else "")

    def story(self, japanese):
        """A (headline, publisher, publisher URL) triple."""
        rng = self.rng
        if japanese:
            words = rng.sample(WORDS_JA, rng.randint(4, 8))
            headline = "".join(w + (rng.choice(PARTICLES_JA) if i % 2 == 0 else "") for i, w in enumerate(words))
            if rng.random() < 0.3:
                headline = "「" + headline[:8] + "」" + headline[8:]
            publisher, url = rng.choice(PUBLISHERS_JA)
        else:
            words = rng.sample(WORDS_EN, rng.randint(6, 13))
            words[0] = words[0].capitalize()
            headline = " ".join(words)
            roll = rng.random()
            if roll < 0.08:
                headline += " & " + rng.choice(WORDS_EN)
            elif roll < 0.14:
                headline = "'" + headline + "'"
            elif roll < 0.18:
                headline += " <live>"
            publisher, url = rng.choice(PUBLISHERS_EN)
        return headline, publisher, url

    def anchor(self, token, headline, publisher):
        # The HTML of one story as Google News writes it; escaped once more when placed in <description>.
        return '<a href="https://news.google.com/rss/articles/%s?oc=5" target="_blank">%s</a>&nbsp;&nbsp;' \
            '<font color="#6f6f6f">%s</font>' % (token, xml_escape(headline), xml_escape(publisher))

    def item(self):
        rng = self.rng
        japanese = rng.random() < 0.25
        headline, publisher, publisher_url = self.story(japanese)
        token = self.token()
        self.moment -= timedelta(seconds=rng.randint(5, 600))
        if rng.random() < 0.3:
            # A story cluster: an <ol> of related coverage.
            entries = [self.anchor(token, headline, publisher)]
            for _ in range(rng.randint(2, 5)):
                other, other_publisher, _ = self.story(japanese)
                entries.append(self.anchor(self.token(), other, other_publisher))
            html = "<ol>" + "".join("<li>" + e + "</li>" for e in entries) + "</ol>"
        else:
            html = self.anchor(token, headline, publisher)
        return (
            "<item><title>%s - %s</title>"
            '<link>https://news.google.com/rss/articles/%s?oc=5</link>'
            '<guid isPermaLink="false">%s</guid>'
            "<pubDate>%s</pubDate>"
            "<description>%s</description>"
            '<source url="%s">%s</source></item>\n'
        ) % (
            xml_escape(headline), xml_escape(publisher), token, token, rfc822(self.moment), xml_escape(html),
            publisher_url, xml_escape(publisher),
        )

    def header(self):
        return (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            '<rss xmlns:media="http://search.yahoo.com/mrss/" version="2.0"><channel>'
            "<generator>NFE/5.0</generator><title>Top stories - Google News</title>"
            "<link>https://news.google.com/?hl=en-US&amp;gl=US&amp;ceid=US:en</link>"
            "<language>en-US</language><webMaster>news-webmaster@google.com</webMaster>"
            "<copyright>2026 Google. All rights reserved. This XML feed is made available solely for the purpose of "
            "rendering Google News results within a personal feed reader for personal, non-commercial use. Any other "
            "use of the feed is expressly prohibited. By accessing this feed or using these results, you are "
            "accepting these terms.</copyright>"
            "<lastBuildDate>%s</lastBuildDate><description>Google News</description>\n" % rfc822(BASE_TIME)
        )

    def footer(self):
        return "</channel></rss>\n"


# ---------------------------------------------------------------------------------------------------------------
# Atom 1.0


class AtomWriter:
    def __init__(self, rng):
        self.rng = rng
        self.moment = BASE_TIME
        self.serial = 0

    def sentence(self):
        rng = self.rng
        if rng.random() < 0.15:
            return "".join(rng.sample(WORDS_JA, rng.randint(5, 10))) + "。"
        words = [rng.choice(LOREM) for _ in range(rng.randint(8, 20))]
        words[0] = words[0].capitalize()
        if rng.random() < 0.2:
            words[rng.randrange(len(words))] = "<code>%s()</code>" % rng.choice(LOREM)
        if rng.random() < 0.2:
            index = rng.randrange(len(words))
            words[index] = '<a href="https://example.org/%s?a=1&b=2">%s</a>' % (words[index], words[index])
        return " ".join(words) + "."

    def html(self):
        rng = self.rng
        parts = []
        for _ in range(rng.randint(2, 7)):
            roll = rng.random()
            if roll < 0.1:
                parts.append("<pre><code>let x = a &lt; b &amp;&amp; c &gt; d</code></pre>")
            elif roll < 0.2:
                parts.append('<p><img src="/images/%d.png" alt="figure"></p>' % rng.randint(1, 999))
            elif roll < 0.3:
                parts.append("<ul>" + "".join("<li>%s</li>" % self.sentence() for _ in range(3)) + "</ul>")
            else:
                parts.append("<p>" + " ".join(self.sentence() for _ in range(rng.randint(2, 5))) + "</p>")
        return "\n".join(parts)

    def entry(self):
        rng = self.rng
        self.serial += 1
        updated = self.moment
        self.moment -= timedelta(seconds=rng.randint(60, 36000))
        published = updated - timedelta(seconds=rng.randint(0, 86400)) if rng.random() < 0.4 else updated
        title = " ".join(rng.choice(LOREM) for _ in range(rng.randint(3, 9))).capitalize()
        if rng.random() < 0.2:
            title += " & <Swift>"
        slug = "post-%d" % self.serial
        authors = []
        for name, uri, email in rng.sample(AUTHORS, rng.randint(1, 2)):
            parts = ["<name>%s</name>" % xml_escape(name)]
            if uri:
                parts.append("<uri>%s</uri>" % uri)
            if email:
                parts.append("<email>%s</email>" % email)
            authors.append("<author>" + "".join(parts) + "</author>")
        categories = "".join(
            '<category term="%s" label="%s"/>' % (attribute_escape(c), attribute_escape(c.title()))
            for c in rng.sample(CATEGORIES, rng.randint(1, 4))
        )
        html = self.html()
        content = (
            "<content type=\"html\"><![CDATA[%s]]></content>" % html
            if rng.random() < 0.2
            else '<content type="html">%s</content>' % xml_escape(html)
        )
        return (
            "<entry>"
            '<title type="html">%s</title>'
            '<link rel="alternate" type="text/html" href="/%s"/>'
            "<id>tag:blog.example.org,2026:%s</id>"
            "<published>%s</published><updated>%s</updated>"
            "%s%s"
            '<summary type="html">%s</summary>'
            "%s</entry>\n"
        ) % (
            xml_escape(xml_escape(title)), slug, slug, rfc3339(published), rfc3339(updated), "".join(authors),
            categories, xml_escape("<p>" + self.sentence() + "</p>"), content,
        )

    def header(self):
        return (
            '<?xml version="1.0" encoding="utf-8"?>\n'
            '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en" xml:base="https://blog.example.org/">'
            "<title>Example Engineering Blog</title><subtitle>Notes on Swift, Linux and feeds</subtitle>"
            '<link rel="alternate" type="text/html" href="https://blog.example.org/"/>'
            '<link rel="self" type="application/atom+xml" href="https://blog.example.org/atom.xml"/>'
            "<id>tag:blog.example.org,2026:feed</id><updated>%s</updated>"
            '<generator uri="https://example.org/gen" version="1.0">gen</generator>\n' % rfc3339(BASE_TIME)
        )

    def footer(self):
        return "</feed>\n"


# ---------------------------------------------------------------------------------------------------------------


def parse_size(text):
    units = {"K": 10**3, "M": 10**6, "G": 10**9}
    text = text.upper().removesuffix("B")
    if text and text[-1] in units:
        return int(float(text[:-1]) * units[text[-1]])
    return int(text)


def size_label(size):
    for unit, factor in (("GB", 10**9), ("MB", 10**6), ("KB", 10**3)):
        if size >= factor and size % factor == 0:
            return "%d%s" % (size // factor, unit)
    return "%dB" % size


def file_name(kind, size):
    return "%s-%s.xml" % ("google-news" if kind == "rss" else "atom", size_label(size))


def generate(kind, size, seed, path):
    """Writes a feed of about `size` bytes (within one item of it) to `path`; returns (bytes, items)."""
    # A stable per-file seed: str hashes are randomised per process, CRC-32 is not.
    rng = random.Random(seed * 1_000_003 + zlib.crc32(("%s:%d" % (kind, size)).encode()))
    writer = GoogleNewsWriter(rng) if kind == "rss" else AtomWriter(rng)
    footer = writer.footer().encode()
    temporary = path + ".partial"
    written = 0
    items = 0
    block = []
    block_size = 0
    with open(temporary, "wb", buffering=0) as output:
        head = writer.header().encode()
        output.write(head)
        written += len(head)
        make = writer.item if kind == "rss" else writer.entry
        while True:
            chunk = make().encode()
            if written + block_size + len(chunk) + len(footer) > size and items > 0:
                break
            block.append(chunk)
            block_size += len(chunk)
            items += 1
            if block_size >= 1 << 20:
                output.write(b"".join(block))
                written += block_size
                block, block_size = [], 0
        block.append(footer)
        block_size += len(footer)
        output.write(b"".join(block))
        written += block_size
    os.replace(temporary, path)
    return written, items


def main():
    repository = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("specs", nargs="*", default=["rss:10M", "rss:100M", "atom:10M"], metavar="KIND:SIZE")
    parser.add_argument("--out", default=os.path.join(repository, ".build", "bench-feeds"), help="output directory")
    parser.add_argument("--seed", type=int, default=42, help="random seed (default 42)")
    parser.add_argument("--force", action="store_true", help="regenerate files that already exist")
    arguments = parser.parse_args()

    os.makedirs(arguments.out, exist_ok=True)
    for spec in arguments.specs:
        kind, _, size_text = spec.partition(":")
        if kind not in ("rss", "atom") or not size_text:
            parser.error("bad spec %r: expected rss:SIZE or atom:SIZE, e.g. rss:100M" % spec)
        size = parse_size(size_text)
        path = os.path.join(arguments.out, file_name(kind, size))
        if not arguments.force and os.path.exists(path) and size * 0.9 <= os.path.getsize(path) <= size:
            print("kept      %s (%d bytes)" % (path, os.path.getsize(path)), file=sys.stderr)
            continue
        written, items = generate(kind, size, arguments.seed, path)
        print("generated %s (%d bytes, %d %s)" % (path, written, items, "items" if kind == "rss" else "entries"),
              file=sys.stderr)


if __name__ == "__main__":
    main()
