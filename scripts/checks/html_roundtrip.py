#!/usr/bin/env python3
"""Strict HTML5 parse check of the HTML escaping fuzzer's documents.

Reads the JSON lines written by Fuzz/HTMLEscaping with SECTIONAL_HTML_DUMP
(`{"text": ..., "document": ...}`), parses every document with html5lib (the
HTML5 parsing algorithm as browsers run it) and checks that the text reads
back, as the title, as element text and as two attribute values, exactly,
and that it added no element, attribute or text anywhere.

The only parse errors allowed are 'invalid-codepoint': the input stream
holding a control or noncharacter code point, which the escaper passes on as
the text has it (the parser keeps them). "Exactly" is after HTML's own input
preprocessing, which no escaping can undo: CR and CRLF become LF, and NUL
becomes U+FFFD (title, attributes) or is dropped (element text).

Prints one summary line; exits 1 on the first failure, naming the input.
"""
import json
import sys

import html5lib


def normalized(text, nul):
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", nul)


def children(element):
    return [child.tag for child in element]


def check(text, document):
    parser = html5lib.HTMLParser(tree=html5lib.getTreeBuilder("etree"), namespaceHTMLElements=False)
    root = parser.parse(document)
    errors = [error for _, error, _ in parser.errors if error != "invalid-codepoint"]
    if errors:
        return "parse errors %s" % errors
    as_title, as_attribute, as_text = normalized(text, "\ufffd"), normalized(text, "\ufffd"), normalized(text, "")
    if children(root) != ["head", "body"]:
        return "html holds %s" % children(root)
    head, body = root[0], root[1]
    if children(head) != ["meta", "meta", "title", "link"]:
        return "head holds %s" % children(head)
    title = head[2]
    if (title.text or "") != as_title or len(title) or title.attrib:
        return "title reads back as %r" % title.text
    if children(body) != ["main"] or (body.text or "").strip() or body[0].attrib:
        return "body holds %s" % children(body)
    main = body[0]
    if children(main) != ["p", "a", "div"] or main.text or any(child.tail for child in main):
        return "main holds %s and text %r" % (children(main), main.text)
    paragraph, link, division = main
    if paragraph.attrib != {"id": "text"} or len(paragraph) or (paragraph.text or "") != as_text:
        return "element text reads back as %r with %s" % (paragraph.text, paragraph.attrib)
    if link.attrib != {"id": "attribute", "title": as_attribute, "href": "#"} or link.text != "x" or len(link):
        return "attribute reads back as %s" % link.attrib
    if division.attrib != {"id": "data", "data-value": as_attribute} or division.text or len(division):
        return "data attribute reads back as %s" % division.attrib
    return None


def main(path):
    count = 0
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            entry = json.loads(line)
            failure = check(entry["text"], entry["document"])
            if failure:
                print("input %r: %s" % (entry["text"][:200], failure))
                return 1
            count += 1
    if count == 0:
        print("no documents in %s" % path)
        return 1
    print("%d documents parsed back exactly" % count)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
