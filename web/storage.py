"""Static files in production: WhiteNoise's compressed, hashed copies. The page's ES modules
import each other by relative path, so those imports are rewritten to the hashed names too: a
browser never mixes modules of two deployments."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
