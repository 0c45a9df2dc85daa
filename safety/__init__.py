"""Safety checks shared by every surface that stores or renders text, at the bottom of
the layers: ``checks.check_write`` (before text is stored) and ``checks.render_safe``
(before stored text reaches a prompt, a host or a file), both running the secret scan
(``secrets``) and the injection scan (``injection``: word patterns and the learned layer).
"""
