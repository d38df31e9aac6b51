"""Writes `make fuzz-all`'s rows into the table between the fuzz-all markers of a README.

    fuzz_table.py README HEADER STAMP ROW...

Each ROW is a Markdown table row whose first cell names a harness; it replaces that harness's row (with STAMP, the
time of the run, as its last cell) and the rows of harnesses not run this time stay as they were.
"""

import re
import sys

BEGIN, END = "<!-- fuzz-all:begin -->", "<!-- fuzz-all:end -->"
COLUMNS = "| harness | inputs executed | seconds | coverage (cov / ft) | corpus | crashes | build | recorded (UTC) |"
RULE = "|---|---:|---:|---:|---:|---:|---|---|"


def cells(line):
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def main():
    path, header, stamp, new_rows = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    text = open(path, encoding="utf-8").read()
    rows = {}
    if BEGIN in text and END in text:
        for line in text[text.index(BEGIN):text.index(END)].splitlines():
            row = cells(line)
            if line.startswith("| ") and row[0] != "harness" and len(row) in (7, 8):
                # Rows from before the build column were all debug builds.
                rows[row[0]] = line if len(row) == 8 else "| " + " | ".join(row[:6] + ["debug", row[6]]) + " |"
    for row in new_rows:
        rows[cells(row)[0]] = row.rstrip() + " " + stamp + " |"
    block = "\n".join([BEGIN, header, "", COLUMNS, RULE] + [rows[name] for name in sorted(rows)] + [END])
    if BEGIN in text and END in text:
        text = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: block, text, flags=re.S)
    else:
        text = text.rstrip("\n") + "\n\n## Recorded runs (`make fuzz-all`)\n\n" + block + "\n"
    open(path, "w", encoding="utf-8").write(text)


if __name__ == "__main__":
    main()
