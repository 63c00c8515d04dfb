"""Shared pytest configuration for portkit's tests."""
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
