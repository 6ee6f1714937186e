#!/usr/bin/env python3
"""Lists the public symbols of the given modules that have no summary line.

Reads the symbol graphs `swift package dump-symbol-graph` wrote (the first
argument is their folder) and exits 1 when any public symbol declared in the
project lacks a doc comment. Symbols that only restate a protocol requirement
(a conformance's `description`, `==`, `init(from:)`, …) take their
documentation from the protocol and are not counted.
"""
import json
import sys
from pathlib import Path

# Requirements of the standard library's protocols: documented there.
INHERITED = {
    "description", "debugDescription", "hash(into:)", "==(_:_:)", "<(_:_:)", "init(from:)", "encode(to:)",
    "init(rawValue:)", "rawValue", "init(stringLiteral:)", "init(dictionaryLiteral:)", "makeIterator()",
    "init(intValue:)", "init(stringValue:)", "intValue", "stringValue", "now", "minimumResolution",
    "sleep(until:tolerance:)", "advanced(by:)", "duration(to:)", "Instant", "Duration",
}


def undocumented(folder: Path, module: str) -> list[str]:
    missing = []
    for graph in sorted(folder.glob(f"{module}.symbols.json")) + sorted(folder.glob(f"{module}@*.symbols.json")):
        for symbol in json.loads(graph.read_text())["symbols"]:
            name = symbol["names"]["title"]
            path = ".".join(symbol["pathComponents"])
            lines = [line["text"].strip() for line in symbol.get("docComment", {}).get("lines", [])]
            location = symbol.get("location", {}).get("uri", "")
            if "/Sources/" not in location:
                continue  # declared outside the project (inherited, synthesized)
            if any(lines) or name in INHERITED:
                continue
            missing.append(f"{module}: {path}  ({location.split('/Sources/')[-1]}:{symbol['location']['position']['line'] + 1})")
    return missing


def main() -> int:
    folder = Path(sys.argv[1])
    missing = [entry for module in sys.argv[2:] for entry in undocumented(folder, module)]
    for entry in missing:
        print("no summary line:", entry)
    print(f"doc coverage: {len(missing)} public symbols without a summary line in {', '.join(sys.argv[2:])}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
