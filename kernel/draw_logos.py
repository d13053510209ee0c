"""Draws the xopscope kernelspec's logos, share/jupyter/kernels/xopscope/logo-{32x32,64x64}.png:
a lens over a 3×3 tensor whose middle element is lit — an op seen from inside.

    /usr/bin/python3 kernel/draw_logos.py     (needs Debian's python3-pil)

Each size is drawn at 8× and reduced with a Lanczos filter, so that edges are smooth at 32 px.
"""
import pathlib

from PIL import Image, ImageDraw

HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE.parent / "share" / "jupyter" / "kernels" / "xopscope"

BACKGROUND = (30, 42, 56, 255)    # slate
CELL = (96, 125, 150, 255)        # the tensor's elements
LIT = (242, 140, 40, 255)         # the element the op touched: Jupyter's orange
LENS = (245, 245, 240, 255)


def draw(size):
    s = size * 8
    u = s / 64  # drawing unit: the 64 px logo's pixel
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, s - 1, s - 1), radius=12 * u, fill=BACKGROUND)
    # The tensor: 3×3 elements under the lens, centred at (26, 26).
    cx, cy, pitch, half = 26 * u, 26 * u, 10 * u, 3.6 * u
    for i in range(3):
        for j in range(3):
            x, y = cx + (j - 1) * pitch, cy + (i - 1) * pitch
            colour = LIT if (i, j) == (1, 1) else CELL
            d.rounded_rectangle((x - half, y - half, x + half, y + half), radius=1.2 * u,
                                fill=colour)
    # The lens and its handle.
    r, w = 20 * u, 4 * u
    d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=LENS, width=round(w))
    d.line((cx + 14.5 * u, cy + 14.5 * u, 57 * u, 57 * u), fill=LENS, width=round(7 * u))
    return img.resize((size, size), Image.LANCZOS)


def main():
    for size in (32, 64):
        path = OUT / f"logo-{size}x{size}.png"
        draw(size).save(path, optimize=True)
        print(f"wrote {path.relative_to(HERE.parent)}")


if __name__ == "__main__":
    main()
