"""Vendor the Fluent Emoji 3D renders the food clone draws into seed_data/assets/food/fluent3d/.

    cd /tmp && npm pack @lobehub/fluent-emoji-3d@1.1.0      # -> lobehub-fluent-emoji-3d-1.1.0.tgz
    python scripts/vendor_fluent_emoji.py /tmp/lobehub-fluent-emoji-3d-1.1.0.tgz

Source: Microsoft's Fluent Emoji ("3D" style, MIT), as packaged on npm by LobeHub in
`@lobehub/fluent-emoji-3d` (MIT): `package/assets/<codepoints>.webp`, 256x256 RGBA, named by
lower-case hex code points joined by "-" (with U+FE0F where the emoji has it).

Copies only the emoji the food world can ask for (`build_emoji.emojis()`: every emoji in
seed_data/vocab/food/*.json plus the extras images.py draws, and `images.PROPS`), each trimmed to its
visible pixels and saved as an optimised PNG at the package's own size (no resampling), named like the
Noto set (`images.emoji_key`: code points without U+FE0F). Writes LICENSE (MIT; the tarball ships
none, its package.json says MIT) and SOURCE.txt (package, version, tarball sha256, files, and any emoji
the package lacks: those keep the Noto Color Emoji fallback in seed_data/assets/food/emoji/).
Re-running on the same tarball rewrites byte-identical files.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import io
import json
import sys
import tarfile
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "seed_data" / "assets" / "food" / "fluent3d"

LICENSE = """MIT License

Copyright (c) Microsoft Corporation (Fluent Emoji artwork, https://github.com/microsoft/fluentui-emoji)
Copyright (c) 2023 LobeHub (npm packaging @lobehub/fluent-emoji-3d, https://github.com/lobehub/fluent-emoji)

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
"""


def wanted() -> list[str]:
    """Every emoji the food world can ask images.py for: the Noto set's list plus images.PROPS."""
    spec = importlib.util.spec_from_file_location("build_emoji", ROOT / "seed_data/assets/food/build_emoji.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    sys.path.insert(0, str(ROOT))
    from apps.food.images import PROPS

    return sorted(set(mod.emojis()) | set(PROPS))


def _names(e: str) -> list[str]:
    """The package's file names this emoji may have: as written, then with/without U+FE0F."""
    cps = [ord(c) for c in e]
    bare = [c for c in cps if c != 0xFE0F]
    out = ["-".join(f"{c:04x}" for c in cps), "-".join(f"{c:04x}" for c in bare),
           "-".join(f"{c:04x}" for c in bare) + "-fe0f"]
    return list(dict.fromkeys(f"package/assets/{n}.webp" for n in out))


def convert(data: bytes) -> bytes:
    im = Image.open(io.BytesIO(data)).convert("RGBA")
    box = im.getchannel("A").point(lambda a: 255 if a > 8 else 0).getbbox()
    if not box:
        raise ValueError("blank render")
    buf = io.BytesIO()
    im.crop(box).save(buf, "PNG", optimize=True)
    return buf.getvalue()


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("tarball", type=Path, help="the npm pack tarball of @lobehub/fluent-emoji-3d")
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from apps.food.images import emoji_key

    raw = args.tarball.read_bytes()
    with tarfile.open(fileobj=io.BytesIO(raw)) as tar:
        meta = json.loads(tar.extractfile("package/package.json").read())
        members = {m.name: m for m in tar.getmembers() if m.isfile()}
        args.out.mkdir(parents=True, exist_ok=True)
        for old in args.out.glob("*.png"):
            old.unlink()
        done, missing, total = [], [], 0
        for e in wanted():
            name = next((n for n in _names(e) if n in members), None)
            if name is None:
                missing.append(e)
                continue
            png = convert(tar.extractfile(members[name]).read())
            (args.out / f"{emoji_key(e)}.png").write_bytes(png)
            done.append((e, name, len(png)))
            total += len(png)
    (args.out / "LICENSE").write_text(LICENSE)
    lines = [f"{meta['name']} {meta['version']} ({meta.get('license')}), npm tarball sha256 "
             f"{hashlib.sha256(raw).hexdigest()}",
             "Made by scripts/vendor_fluent_emoji.py (trimmed to the visible pixels, PNG optimize=True).",
             f"{len(done)} renders, {total} bytes. Missing from the package (Noto fallback): "
             + (" ".join(missing) or "none"), ""]
    lines += [f"{emoji_key(e)}.png  {e}  <- {n}" for e, n, _ in done]
    (args.out / "SOURCE.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(done)} renders ({total / 1e6:.2f} MB) -> {args.out}; missing: {missing or 'none'}")


if __name__ == "__main__":
    main()
