"""TDLib as the oracle of the text-entity tests: the libtdjson that python-telegram 2.0.0 ships, called offline with
td_execute (synchronous requests need no client, no network, no account).

Reads JSON lines {"op": "entities" | "markdown" | "markdown_text", "text": ..., "entities": [...]} from stdin and
writes one JSON line per input: {"text": ..., "entities": [[type, offset, length, argument], ...]} with TDLib's
type names (textEntityTypeBold → "Bold"), or {"error": ...}.

  entities       getTextEntities(text)
  markdown       parseMarkdown(formattedText(text, entities))
  markdown_text  getMarkdownText(formattedText(text, entities))
"""
import ctypes
import glob
import json
import os
import sys


def load_tdjson():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.abspath(os.path.join(here, "..", "..", ".."))
    candidates = glob.glob(os.path.join(root, ".venv", "lib", "python*", "site-packages", "telegram", "lib", "libtdjson.so"))
    if not candidates:
        sys.exit("no libtdjson in .venv (python-telegram 2.0.0): run `make deps`")
    lib = ctypes.CDLL(candidates[0])
    lib.td_execute.restype = ctypes.c_char_p
    lib.td_execute.argtypes = [ctypes.c_char_p]
    return lib


def execute(lib, request):
    answer = lib.td_execute(json.dumps(request).encode("utf-8"))
    return json.loads(answer.decode("utf-8")) if answer else None


def entity_argument(kind):
    for key in ("url", "language", "user_id", "custom_emoji_id", "media_timestamp"):
        if key in kind:
            return kind[key]
    return None


def flatten(entities):
    result = []
    for entity in entities:
        kind = entity["type"]
        name = kind["@type"][len("textEntityType"):]
        result.append([name, entity["offset"], entity["length"], entity_argument(kind)])
    return result


def td_entities(entities):
    result = []
    for name, offset, length, argument in entities:
        kind = {"@type": "textEntityType" + name}
        if name == "TextUrl":
            kind["url"] = argument
        elif name == "PreCode":
            kind["language"] = argument
        elif name == "MentionName":
            kind["user_id"] = argument
        result.append({"@type": "textEntity", "offset": offset, "length": length, "type": kind})
    return result


def main():
    lib = load_tdjson()
    execute(lib, {"@type": "setLogVerbosityLevel", "new_verbosity_level": 0})
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        op = request["op"]
        if op == "entities":
            answer = execute(lib, {"@type": "getTextEntities", "text": request["text"]})
            out = {"text": request["text"], "entities": flatten(answer.get("entities", []))} if answer.get("@type") != "error" \
                else {"error": answer.get("message")}
        else:
            formatted = {"@type": "formattedText", "text": request["text"], "entities": td_entities(request.get("entities", []))}
            method = "parseMarkdown" if op == "markdown" else "getMarkdownText"
            answer = execute(lib, {"@type": method, "text": formatted})
            if answer.get("@type") == "error":
                out = {"error": answer.get("message")}
            else:
                out = {"text": answer["text"], "entities": flatten(answer.get("entities", []))}
        sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
