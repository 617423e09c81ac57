"""What pyproject.toml cannot say: the wheel carries the bundled sample skills (the
repository's top-level skills/ folder) as skillstudio/samples, and the documentation
(docs/*.md and the pictures they show) as skillstudio/docs, for the app's Help."""

from __future__ import annotations

import os
import re
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithSamples(build_py):
    def run(self) -> None:
        super().run()
        source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "skills")
        target = os.path.join(self.build_lib, "skillstudio", "samples")
        if os.path.isdir(source):
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(source, target)
        copy_docs(os.path.join(self.build_lib, "skillstudio", "docs"))


def copy_docs(target: str) -> None:
    """docs/*.md and the images they name (not every screenshot of docs/)."""
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "docs")
    if not os.path.isdir(source):
        return
    shutil.rmtree(target, ignore_errors=True)
    os.makedirs(target)
    pages = [name for name in os.listdir(source) if name.endswith(".md")]
    wanted = set(pages)
    for page in pages:
        with open(os.path.join(source, page), encoding="utf-8") as fh:
            wanted.update(re.findall(r"!\[[^\]]*\]\(([\w.-]+\.(?:png|svg))\)", fh.read()))
    for name in sorted(wanted):
        if os.path.isfile(os.path.join(source, name)):
            shutil.copy2(os.path.join(source, name), os.path.join(target, name))


setup(cmdclass={"build_py": BuildWithSamples})
