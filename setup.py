"""Builds the modules listed in pyproject.toml's [tool.cardtable] `compiled` with Cython, as they
are: plain Python that runs 1.2 to 1.4 times as fast compiled (docs/performance.md). Each is an
optional extension: where the C compiler fails, the install goes on and the module runs as Python.
An editable install (`pip install -e`, as the Makefile and CI make it, several times) compiles
nothing: `make compile` builds the modules beside their sources, again only those whose source
changed, and the tests refuse to run on a stale one (tests/conftest.py)."""

import os
import sys
import tomllib
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
COMPILED = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["cardtable"]["compiled"]
# As Python runs them: annotations are not C types (a NamedTuple is passed where `tuple` is
# annotated), and functions stay cheap builtins.
DIRECTIVES = {"language_level": 3, "annotation_typing": False, "binding": False}


def extensions() -> list[Extension]:
    modules = [Extension(path.removesuffix(".py").replace("/", "."), [path]) for path in COMPILED]
    built = cythonize(modules, compiler_directives=DIRECTIVES, quiet=True)
    for extension in built:
        extension.optional = True
    return built


class BuildInPlace(build_ext):
    def copy_file(self, infile, outfile, *args, **kwargs):
        """A new file beside the source, never the old one rewritten: a server or worker running
        from the tree maps the module it loaded, and would crash on its pages changing under it
        (it goes on with the old module until it restarts)."""
        if os.path.exists(outfile):
            os.unlink(outfile)
        return super().copy_file(infile, outfile, *args, **kwargs)


setup(ext_modules=[] if "editable_wheel" in sys.argv else extensions(),
      cmdclass={"build_ext": BuildInPlace},
      options={"build_ext": {"parallel": os.cpu_count() or 1}})
