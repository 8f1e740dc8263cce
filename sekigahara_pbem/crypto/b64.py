"""Base64 text another party wrote (an age armor, a sealed section, an SSHSIG), checked
before it is decoded: `base64.b64decode` tells bad input only by raising (binascii.Error,
a ValueError), so its readers check the text here first and refuse it in their own words.
"""

from __future__ import annotations

import re

_STANDARD = re.compile(r"[A-Za-z0-9+/]*={0,2}")


def is_base64(text: str) -> bool:
    """Whether `text` is standard padded base64 and nothing else: exactly the texts that
    `base64.b64decode(text, validate=True)` decodes without raising."""
    return len(text) % 4 == 0 and _STANDARD.fullmatch(text) is not None
