"""The join URL as a QR code, drawn server-side as inline SVG (segno; no script, no CDN)."""

import io

import segno


def qr_svg(url: str) -> str:
    """An SVG element (no XML declaration) encoding `url`, scaled by the page's CSS."""
    code = segno.make(url, error="m")
    out = io.BytesIO()
    code.save(out, kind="svg", xmldecl=False, svgns=True, scale=8, border=2,
              svgclass="qr", lineclass=None, title="QR code of the join address")
    return out.getvalue().decode()
