#!/bin/sh
# Runs one test by name with the project's runner (sample; SkillStudio never runs it).
exec python -m pytest -q -k "$1"
