"""Build the shipped font subsets from Debian's Noto fonts (build time only).

Why: the full Noto CJK collections are ~20 MB each and a .ttc opens at its Japanese face, so
we ship one small face per script, cut down to exactly the characters the translation tables
(assets/lang/*.json) use plus a fixed base set. Rerun this whenever a table changes:

    apt-get install -y fonts-noto-core fonts-noto-cjk
    pip install fonttools            # the "fonts" extra; not needed at run time
    python assets/fonts/subset_fonts.py

It fails (exit 1) if any character that some language needs is in none of the faces of that
language's chain, so a new string can never silently render as tofu. It also rewrites
fonts.json (the manifest game/ui/drawing/fonts.py loads), OFL.txt and README.md next to itself.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path

from fontTools import subset
from fontTools.merge import Merger
from fontTools.ttLib import TTCollection, TTFont

HERE = Path(__file__).resolve().parent
LANG_DIR = HERE.parent / "lang"
CORE = ("fonts-noto-core", Path("/usr/share/fonts/truetype/noto"))
CJK = ("fonts-noto-cjk", Path("/usr/share/fonts/opentype/noto"))

# Printable ASCII plus what the UI draws besides translated text (money, arrows, marks).
BASE = "".join(map(chr, range(0x20, 0x7F))) + "$…×÷·–—‘’“”•♦★✓✗←→↑↓⏱"
# Whole blocks we add where the source covers them, so typed player names in these scripts
# render too (Latin-1, Latin Extended-A, Thai: a few KB each; Chinese names: the SC face).
# Not required, never an error.
def _name_hanzi() -> list[int]:
    """The Chinese characters people's names are written in: GB2312's 6,763 (Simplified)
    and Big5's 5,401 frequently used ones (Traditional, 0xA440-0xC67E), 8,836 together,
    taken from Python's codecs (no list to keep by hand)."""
    out = []
    for cp in range(0x4E00, 0xA000):
        c = chr(cp)
        try:
            c.encode("gb2312")
        except UnicodeEncodeError:
            try:
                b = c.encode("big5")
            except UnicodeEncodeError:
                continue
            if not (len(b) == 2 and 0xA440 <= (b[0] << 8 | b[1]) <= 0xC67E):
                continue
        out.append(cp)
    return out


OPTIONAL = {
    "latin": [*range(0xA0, 0x180)],
    "thai": [*range(0xA0, 0x180), *range(0x0E01, 0x0E5C)],
    # names typed in Chinese (on a phone too) shown on every screen, in every language:
    # the SC face is the last of every chain (about 4 MB a weight)
    "sc": _name_hanzi(),
}

# A face is built from one or more sources (package, file, TTC family or None); several
# TrueType sources are merged into one file, the first one giving names and line metrics.
SYMBOLS = [(CORE, "NotoSansSymbols-{w}.ttf", None), (CORE, "NotoSansSymbols2-Regular.ttf", None)]
FACES = {
    "latin": ("NotoSans-{w}.subset.ttf", [(CORE, "NotoSans-{w}.ttf", None), *SYMBOLS]),
    "thai": (
        "NotoSansThai-{w}.subset.ttf",
        [(CORE, "NotoSansThai-{w}.ttf", None), (CORE, "NotoSans-{w}.ttf", None), *SYMBOLS],
    ),
    "tc": ("NotoSansCJKtc-{w}.subset.otf", [(CJK, "NotoSansCJK-{w}.ttc", "Noto Sans CJK TC")]),
    "sc": ("NotoSansCJKsc-{w}.subset.otf", [(CJK, "NotoSansCJK-{w}.ttc", "Noto Sans CJK SC")]),
}
WEIGHTS = ("Regular", "Bold")
# Per language: faces tried in order for each character (fonts.py splits text into runs).
CHAINS = {
    "en": ["latin", "thai", "sc"],
    "th": ["thai", "latin", "sc"],
    "zh_Hant": ["tc", "latin", "thai", "sc"],
    "zh_Hans": ["sc", "latin", "thai"],
}


def die(msg: str) -> None:
    """Exit loudly: a broken subset must stop the build, not ship tofu."""
    print(f"subset_fonts: ERROR: {msg}", file=sys.stderr)
    sys.exit(1)


def pkg_version(pkg: str) -> str:
    out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg], capture_output=True, text=True)
    if out.returncode or not out.stdout:
        die(f"Debian package {pkg} is not installed: apt-get install -y {pkg}")
    return out.stdout


def source_path(src, weight: str) -> Path:
    (pkg, folder), name, _ = src
    path = folder / name.format(w=weight)
    if not path.exists():
        die(f"{path} missing: apt-get install -y {pkg}")
    return path


def font_number(path: Path, family: str | None) -> int:
    """Pick a TTC member by family name, never by position (the order differs by build)."""
    if family is None:
        return 0
    coll = TTCollection(str(path), lazy=True)
    for i, f in enumerate(coll.fonts):
        if f["name"].getDebugName(1) == family:
            return i
    die(f"{path} has no face named {family!r}")
    return -1


def load(src, weight: str) -> TTFont:
    path = source_path(src, weight)
    return TTFont(str(path), fontNumber=font_number(path, src[2]), lazy=True)


def lang_chars() -> dict[str, set[str]]:
    """Every character each table uses (control characters such as \\n excluded), plus BASE."""
    out = {}
    for lang in CHAINS:
        table = json.loads((LANG_DIR / f"{lang}.json").read_text(encoding="utf-8"))
        text = "".join(table.values()) + BASE
        out[lang] = {c for c in text if unicodedata.category(c) != "Cc"}
    return out


def subset_one(src, weight: str, codepoints: set[int], out: Path) -> None:
    opts = subset.Options()
    opts.layout_features = ["*"]  # keep Thai mark/mkmk/ccmp and CJK locl; cheap for our sizes
    opts.name_IDs = ["*"]  # keep copyright and licence records (OFL condition 2)
    opts.name_languages = ["*"]
    opts.hinting = False  # smaller; also lets hinted and unhinted sources merge
    opts.notdef_outline = True  # a missing glyph shows as a visible box, not nothing
    opts.font_number = font_number(source_path(src, weight), src[2])
    font = subset.load_font(str(source_path(src, weight)), opts)
    sub = subset.Subsetter(opts)
    sub.populate(unicodes=sorted(codepoints))
    sub.subset(font)
    subset.save_font(font, str(out), opts)


def build_face(key: str, weight: str, chars: set[str], tmp: Path) -> tuple[Path, list[dict]]:
    """Split chars over the face's sources, subset each, merge them, return file and sources."""
    pattern, sources = FACES[key]
    cmaps = [set(load(s, weight).getBestCmap()) for s in sources]
    wanted = {ord(c) for c in chars} | {
        cp for cp in OPTIONAL.get(key, []) if any(cp in m for m in cmaps)
    }
    parts, used = [], []
    for i, src in enumerate(sources):
        mine = {cp for cp in wanted if cp in cmaps[i] and not any(cp in m for m in cmaps[:i])}
        if not mine and i:
            continue
        part = tmp / f"{key}-{weight}-{i}.font"
        subset_one(src, weight, mine, part)
        parts.append(part)
        (pkg, _), name, fam = src
        used.append(
            {
                "package": pkg,
                "version": pkg_version(pkg),
                "file": name.format(w=weight),
                "face": fam or "",
                "chars": len(mine),
            }
        )
    out = HERE / pattern.format(w=weight)
    if len(parts) == 1:
        out.write_bytes(parts[0].read_bytes())
        return out, used
    merged = Merger().merge([str(p) for p in parts])
    first = TTFont(str(parts[0]))
    for tag, attrs in {
        "hhea": ("ascent", "descent", "lineGap"),
        "OS/2": ("sTypoAscender", "sTypoDescender", "sTypoLineGap", "usWinAscent", "usWinDescent"),
    }.items():
        for a in attrs:  # Merger takes the max; symbol fonts would blow up the line height
            setattr(merged[tag], a, getattr(first[tag], a))
    merged.recalcTimestamp = False  # byte-identical reruns: no noise in git
    merged["head"].created = first["head"].created
    merged["head"].modified = first["head"].modified
    merged.save(str(out))
    return out, used


def assign(chars: dict[str, set[str]]) -> dict[str, set[str]]:
    """Give every needed character to the first face of its language's chain that has it."""
    cover = {
        k: set().union(*(set(load(s, "Regular").getBestCmap()) for s in FACES[k][1]))
        & set().union(*(set(load(s, "Bold").getBestCmap()) for s in FACES[k][1]))
        for k in FACES
    }
    per_face: dict[str, set[str]] = {k: set() for k in FACES}
    missing = {}
    for lang, needed in chars.items():
        for c in needed:
            face = next((k for k in CHAINS[lang] if ord(c) in cover[k]), None)
            if face is None:
                missing.setdefault(lang, set()).add(c)
            else:
                per_face[face].add(c)
    if missing:
        die(
            "characters in no source font: "
            + "; ".join(
                f"{lang}: " + " ".join(f"{c!r} U+{ord(c):04X}" for c in sorted(cs))
                for lang, cs in missing.items()
            )
        )
    return per_face


OFL_SOURCE = Path("/usr/share/doc/fonts-noto-cjk/copyright")


def write_ofl(notices: set[str]) -> None:
    """OFL.txt = the sources' copyright notices + the licence text from Debian's copyright."""
    lines: list[str] = []
    text = OFL_SOURCE.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(text):
        if line == "License: SIL-1.1" and i + 1 < len(text) and text[i + 1].startswith(" "):
            for body_line in text[i + 1 :]:  # the stanza: indented lines, "." for a blank line
                if not body_line.startswith(" "):
                    break
                lines.append("" if body_line.strip() == "." else body_line[1:])
            break
    body = "\n".join(lines).strip("\n")
    if "SIL OPEN FONT LICENSE" not in body:
        die(f"no OFL text found in {OFL_SOURCE}")
    head = [
        "The fonts in this folder are Modified Versions (subsets; merges for NotoSans* and",
        "NotoSansThai*) of Noto fonts shipped by Debian, licensed under the OFL below.",
        "",
        "Copyright, as stated by Debian's copyright files for the source packages:",
    ]
    for pkg in ("fonts-noto-core", "fonts-noto-cjk"):
        text = Path(f"/usr/share/doc/{pkg}/copyright").read_text(encoding="utf-8")
        stanza = text.split("\nFiles: *\n", 1)[1].split("\n\n", 1)[0].splitlines()
        cr, on = [], False
        for ln in stanza:  # the Copyright field: its first line and indented continuations
            on = ln.startswith("Copyright:") or (on and ln.startswith(" "))
            if on:
                cr.append(ln.removeprefix("Copyright:").strip())
        head.append(f"  {pkg} {pkg_version(pkg)}: Copyright " + "; ".join(c for c in cr if c))
    head += ["", "Copyright notices in the source fonts:", *(f"  {n}" for n in sorted(notices))]
    (HERE / "OFL.txt").write_text("\n".join(head) + f"\n\n{body}\n", encoding="utf-8")


def main() -> None:
    per_face = assign(lang_chars())
    manifest = {"chains": CHAINS, "faces": {}, "sources": {}}
    notices: set[str] = set()
    with tempfile.TemporaryDirectory() as tmp:
        for key in FACES:
            manifest["faces"][key] = {}
            for weight in WEIGHTS:
                out, used = build_face(key, weight, per_face[key], Path(tmp))
                manifest["faces"][key][weight.lower()] = out.name
                manifest["sources"][out.name] = used
                for u in used:
                    src = next(s for s in FACES[key][1] if s[1].format(w=weight) == u["file"])
                    notices.add(load(src, weight)["name"].getDebugName(0).strip())
    (HERE / "fonts.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    write_ofl(notices)
    rows = []
    for name, used in manifest["sources"].items():
        size = (HERE / name).stat().st_size
        src = " + ".join(
            f"{u['file']}{' (' + u['face'] + ')' if u['face'] else ''} from "
            f"{u['package']} {u['version']}"
            for u in used
        )
        rows.append(f"| {name} | {size // 1024} KB | {src} |")
    total = sum((HERE / n).stat().st_size for n in manifest["sources"]) // 1024
    (HERE / "README.md").write_text(
        "# Fonts\n\nSubsets of the Noto fonts as shipped by Debian, licensed under the SIL Open"
        " Font License 1.1 (OFL.txt). Generated by `subset_fonts.py` (do not edit by hand);"
        " regenerate after changing assets/lang/*.json with:\n\n"
        "    apt-get install -y fonts-noto-core fonts-noto-cjk\n"
        "    pip install fonttools\n    python assets/fonts/subset_fonts.py\n\n"
        "fonts.json lists, per language, the faces tried in order for each character.\n\n"
        "| file | size | made from (Debian package and version) |\n|---|---|---|\n"
        + "\n".join(rows)
        + f"\n\nTotal: {total} KB.\n",
        encoding="utf-8",
    )
    print(f"subset_fonts: wrote {len(rows)} fonts, {total} KB")


if __name__ == "__main__":
    main()
