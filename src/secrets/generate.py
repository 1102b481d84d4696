#!/usr/bin/env python3
"""Write src/secrets/rules.rs, the rule table the secret scanner compiles in, from
gitleaks.toml (gitleaks' default rule set, MIT, vendored as it is upstream) and local.toml
(git-checkpoint's own few rules).

    python3 src/secrets/generate.py           # rewrite rules.rs
    python3 src/secrets/generate.py --check   # exit 1 when rules.rs is not what it would write

To update gitleaks' rules: replace gitleaks.toml with upstream's config/gitleaks.toml, set
GITLEAKS_COMMIT below to the commit it came from, run this, then `cargo test --lib secrets`
(every regex must compile, and the corpus in tests/secrets/ must keep its recall).
"""

import hashlib
import pathlib
import re
import sys
import tomllib

# The upstream commit gitleaks.toml was taken from (github.com/gitleaks/gitleaks).
GITLEAKS_COMMIT = "b58d3f102cf3a2c84cb7f923d05c25c9b1aed84b"
GITLEAKS_VERSION = "v8.30.0-27-gb58d3f10"

HERE = pathlib.Path(__file__).resolve().parent


def rust_str(text: str) -> str:
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif code < 0x20 or code > 0x7E:
            out.append("\\u{%x}" % code)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def str_list(items) -> str:
    return "&[" + ", ".join(rust_str(i) for i in items) + "]"


REPETITION = re.compile(r"\{\d+(?:,\d*)?\}")


def go_to_rust(pattern: str) -> str:
    """The one difference between Go's regexes (RE2) and the regex crate's that the rules
    meet: Go reads a `{` that starts no repetition (`{{`, `${`) as a literal brace, the
    regex crate refuses it. Such braces are escaped; nothing else changes."""
    out = []
    i = 0
    in_class = False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if in_class:
            if ch == "]":
                in_class = False
        elif ch == "[":
            in_class = True
            out.append(ch)
            i += 1
            # A `]` (or `^]`) right after the opening is a literal member.
            if pattern[i : i + 1] == "^":
                out.append("^")
                i += 1
            if pattern[i : i + 1] == "]":
                out.append("]")
                i += 1
            continue
        elif ch == "{" and not REPETITION.match(pattern, i):
            out.append("\\{")
            i += 1
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def regex_list(items) -> str:
    return str_list(go_to_rust(i) for i in items)


KNOWN_RULE_KEYS = {
    "id", "description", "regex", "secretGroup", "entropy", "keywords", "path",
    "allowlists", "tags",
}
KNOWN_ALLOW_KEYS = {
    "description", "condition", "regexTarget", "regexes", "stopwords", "paths", "commits",
}


def allowlist(a: dict, where: str) -> str:
    unknown = set(a) - KNOWN_ALLOW_KEYS
    if unknown:
        sys.exit(f"{where}: allowlist keys this scanner does not know: {sorted(unknown)}")
    condition = a.get("condition", "OR").upper()
    if condition not in ("OR", "AND"):
        sys.exit(f"{where}: unknown allowlist condition {condition!r}")
    target = {"secret": "Secret", "match": "Match", "line": "Line"}.get(
        a.get("regexTarget", "secret")
    )
    if target is None:
        sys.exit(f"{where}: unknown regexTarget {a.get('regexTarget')!r}")
    # Commits never apply: a checkpoint's files are scanned, not a history.
    return (
        "Allowlist { and: %s, target: Target::%s, regexes: %s, stopwords: %s, paths: %s }"
        % (
            "true" if condition == "AND" else "false",
            target,
            regex_list(a.get("regexes", [])),
            str_list([w.lower() for w in a.get("stopwords", [])]),
            regex_list(a.get("paths", [])),
        )
    )


def rule(r: dict, origin: str) -> str:
    where = f"{origin}: rule {r.get('id')!r}"
    unknown = set(r) - KNOWN_RULE_KEYS
    if unknown:
        sys.exit(f"{where}: keys this scanner does not know: {sorted(unknown)}")
    if "regex" not in r and "path" not in r:
        sys.exit(f"{where}: neither regex nor path")
    allowlists = [allowlist(a, where) for a in r.get("allowlists", [])]
    keywords = sorted({k.lower() for k in r.get("keywords", [])})
    return (
        "    Rule {\n"
        f"        id: {rust_str(r['id'])},\n"
        f"        regex: {('Some(' + rust_str(go_to_rust(r['regex'])) + ')') if 'regex' in r else 'None'},\n"
        f"        secret_group: {int(r.get('secretGroup', 0))},\n"
        f"        entropy: {float(r.get('entropy', 0.0))!r},\n"
        f"        keywords: {str_list(keywords)},\n"
        f"        path: {('Some(' + rust_str(go_to_rust(r['path'])) + ')') if 'path' in r else 'None'},\n"
        f"        allowlists: &[{', '.join(allowlists)}],\n"
        "    },\n"
    )


def render() -> str:
    gitleaks_text = (HERE / "gitleaks.toml").read_bytes()
    local_text = (HERE / "local.toml").read_bytes()
    digest = hashlib.sha256(gitleaks_text + b"\0" + local_text).hexdigest()[:16]
    gitleaks = tomllib.loads(gitleaks_text.decode())
    local = tomllib.loads(local_text.decode())
    ids = set()
    rules = []
    for origin, config in (("gitleaks.toml", gitleaks), ("local.toml", local)):
        for r in config.get("rules", []):
            if r["id"] in ids:
                sys.exit(f"{origin}: rule {r['id']!r} defined twice")
            ids.add(r["id"])
            rules.append(rule(r, origin))
    glob = gitleaks.get("allowlist", {})
    return (
        "// @generated by src/secrets/generate.py from gitleaks.toml (gitleaks "
        f"{GITLEAKS_VERSION}, MIT) and local.toml.\n"
        "// Do not edit: change local.toml, or update gitleaks.toml, and run the script.\n\n"
        "use super::engine::{Allowlist, Rule, Target};\n\n"
        "/// A digest of both rule files: findings kept in the scan's cache are reused only under\n"
        "/// the same rules.\n"
        f"pub const DIGEST: &str = {rust_str(digest)};\n\n"
        "/// gitleaks' global allowlist: paths never scanned, secrets never reported.\n"
        f"pub static GLOBAL: Allowlist = {allowlist(glob, 'global allowlist')};\n\n"
        "/// Every rule, gitleaks' first, then git-checkpoint's own.\n"
        "pub static RULES: &[Rule] = &[\n" + "".join(rules) + "];\n"
    )


def main() -> None:
    out = HERE / "rules.rs"
    text = render()
    if "--check" in sys.argv[1:]:
        current = out.read_text() if out.exists() else ""
        if current != text:
            sys.exit(f"{out} is out of date: run python3 src/secrets/generate.py")
        return
    out.write_text(text)


if __name__ == "__main__":
    main()
