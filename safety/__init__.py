"""Safety scans shared by every surface that stores or renders text: the secret scan
(refused at write, ``secrets``) and the injection scan (at load, ``injection``).

They live in ``memory``, the lowest app, because every app above writes text and
memory's own beliefs need the same scans; one function each, used everywhere.
"""
