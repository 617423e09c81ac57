"""Only one thing pyproject.toml cannot say: the wheel carries the bundled sample
skills (the repository's top-level skills/ folder) as skillstudio/samples."""

from __future__ import annotations

import os
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


setup(cmdclass={"build_py": BuildWithSamples})
