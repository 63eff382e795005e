#!/usr/bin/env python3
"""Regenerates the encoding-*.xml fixtures from one UTF-8 source (run in this directory)."""

TEMPLATE = """<?xml version="1.0" encoding="{declared}"?>
<rss version="2.0"><channel><title>{title}</title><link>https://example.com/</link>
<item><title>{item}</title><link>https://example.com/1</link><description>{description}</description></item>
</channel></rss>
"""

LATIN = dict(title="Café crème", item="Über naïve façades – “quoted” €5", description="Ça va? Señor Müller")
JAPANESE = dict(title="日本語のフィード", item="東京で初雪、平年より早く", description="ソースはShift_JISかEUC-JPです")

FIXTURES = [
    ("encoding-iso-8859-1.xml", "ISO-8859-1", "iso-8859-1", dict(LATIN, item="Über naïve façades")),
    ("encoding-windows-1252.xml", "windows-1252", "cp1252", LATIN),
    ("encoding-shift-jis.xml", "Shift_JIS", "shift_jis", JAPANESE),
    ("encoding-euc-jp.xml", "EUC-JP", "euc_jp", JAPANESE),
    ("encoding-utf-16le-bom.xml", "UTF-16", "utf-16-le", JAPANESE),
    ("encoding-utf-16be-bom.xml", "UTF-16", "utf-16-be", LATIN),
    ("encoding-utf-8-bom.xml", "UTF-8", "utf-8", JAPANESE),
    ("encoding-http-charset-contradicts-declaration.xml", "ISO-8859-1", "cp1252", LATIN),
    # EBCDIC (the whole document, declaration included, in IBM500) and a code page named by its number only.
    ("encoding-ebcdic-cp500.xml", "cp500", "cp500", dict(LATIN, item="Über naïve façades")),
    ("encoding-code-page-437-by-number.xml", "437", "cp437", dict(LATIN, item="Über naïve façades")),
]

for name, declared, codec, text in FIXTURES:
    data = TEMPLATE.format(declared=declared, **text).encode(codec)
    if codec == "utf-16-le":
        data = b"\xff\xfe" + data
    elif codec == "utf-16-be":
        data = b"\xfe\xff" + data
    elif name == "encoding-utf-8-bom.xml":
        data = b"\xef\xbb\xbf" + data
    with open(name, "wb") as f:
        f.write(data)

# Undeclared Japanese feeds (no encoding in the declaration, no BOM) whose first KiB is ASCII: the sniffer must look
# past it to tell Shift_JIS and EUC-JP from UTF-8.
UNDECLARED_HEAD = (
    '<?xml version="1.0"?>\n<rss version="2.0"><channel><title>Undeclared Japanese</title><link>https://example.jp/</link>\n'
    + "<description>"
    + " ".join(["An ASCII channel header long enough that the first KiB holds no Japanese byte."] * 16)
    + "</description>\n"
)
UNDECLARED_BODY = (
    "<item><title>東京で初雪、平年より早く</title><link>https://example.jp/1</link>"
    "<description>ソースはShift_JISです。ひらがなとカタカナ。</description></item>\n"
    "<item><title>大阪の天気は晴れ</title><link>https://example.jp/2</link></item>\n</channel></rss>\n"
)
for name, codec in [
    ("encoding-undeclared-shift-jis-ascii-first-kib.xml", "shift_jis"),
    ("encoding-undeclared-euc-jp-ascii-first-kib.xml", "euc_jp"),
]:
    with open(name, "wb") as f:
        f.write((UNDECLARED_HEAD + UNDECLARED_BODY).encode(codec))

# UTF-8 declared as an encoding its bytes are not (pear XML_Feed_Parser's `rss091-international.xml` says us-ascii):
# libxml2 stopped at the first byte its decoder refused and every item was lost.
for name, declared in [
    ("encoding-utf-8-declared-us-ascii.xml", "us-ascii"),
    ("encoding-utf-8-declared-euc-jp.xml", "EUC-JP"),
]:
    with open(name, "wb") as f:
        f.write(TEMPLATE.format(declared=declared, **JAPANESE).encode("utf-8"))

# Bytes that are not the declared encoding, past the start: windows-1252's five empty positions (0x81, 0x9D: the
# end of a doubly encoded “”) in a Latin-1 feed, and two bytes EUC-JP never uses. Each costs its bytes; the items
# after it are read.
BROKEN = """<?xml version="1.0" encoding="{declared}"?>
<rss version="2.0"><channel><title>{title}</title><link>https://example.com/</link>
<item><title>{first}</title><link>https://example.com/1</link></item>
<item><title>Broken @ here</title><link>https://example.com/2</link></item>
<item><title>{last}</title><link>https://example.com/3</link></item>
</channel></rss>
"""
for name, declared, codec, text, bad in [
    ("encoding-iso-8859-1-with-windows-1252-empty-positions.xml", "ISO-8859-1", "cp1252",
     dict(title="Café crème", first="Über naïve façades", last="“Quoted” €5"), b"\x81\x9d"),
    ("encoding-euc-jp-with-bytes-that-are-not-euc-jp.xml", "EUC-JP", "euc_jp",
     dict(title="日本語のフィード", first="東京で初雪", last="大阪の天気は晴れ"), b"\xff\xff"),
]:
    with open(name, "wb") as f:
        f.write(BROKEN.format(declared=declared, **text).encode(codec).replace(b"@", bad))
