#!/usr/bin/env python3
"""Builds NotoSansSC-subset.otf, the CJK fallback font the client bundles.

Source: Noto Sans CJK SC Regular (face 2 of NotoSansCJK-Regular.ttc, from
Debian's `fonts-noto-cjk` package), SIL Open Font License 1.1 (OFL.txt).
Kept: every character of the translations (client/locales/*.yml), the 3,755
hanzi of GB2312 level 1 (the common ones), GB2312's symbols and punctuation,
CJK punctuation, full-width forms, and Japanese kana. Needs `fonttools`
(PyPI) for pyftsubset.

    apt-get download fonts-noto-cjk && dpkg -x fonts-noto-cjk_*.deb x
    python3 make_subset.py x/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
"""
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
LOCALES = HERE.parent.parent / "locales"


def gb2312(rows):
    """The characters of these GB2312 rows (1-based), in order."""
    out = []
    for row in rows:
        for cell in range(1, 95):
            try:
                out.append(bytes([0xA0 + row, 0xA0 + cell]).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    return out


def main():
    source = sys.argv[1]
    chars = set(gb2312(range(1, 10)))  # symbols, punctuation, kana, Greek, Cyrillic
    chars |= set(gb2312(range(16, 56)))  # level-1 hanzi
    chars |= {chr(c) for c in range(0x3000, 0x3040)}  # CJK punctuation
    chars |= {chr(c) for c in range(0x3040, 0x3100)}  # hiragana, katakana
    chars |= {chr(c) for c in range(0xFF00, 0xFFF0)}  # full-width forms
    for path in sorted(LOCALES.glob("*.yml")):
        chars |= set(path.read_text(encoding="utf-8"))
    chars = sorted(c for c in chars if ord(c) > 0x7F)
    text = HERE / "subset-chars.txt"
    text.write_text("".join(chars), encoding="utf-8")
    subprocess.run(
        [
            "pyftsubset",
            source,
            "--font-number=2",
            f"--text-file={text}",
            "--unicodes=U+0020-007E",
            "--layout-features=*",
            "--no-hinting",
            f"--output-file={HERE / 'NotoSansSC-subset.otf'}",
        ],
        check=True,
    )
    text.unlink()
    print(f"{len(chars)} characters beyond ASCII kept")


if __name__ == "__main__":
    main()
