from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "personaweb.settings")
application = get_wsgi_application()

# Load the embedding model in the background now, not inside the first request that needs it.
from safety.injection import warm_up_at_start  # noqa: E402

warm_up_at_start(web=True)

# Everything alive now lives as long as the process: keep it out of every collection.
from personaweb.runtime import freeze_startup_objects  # noqa: E402

freeze_startup_objects()
