"""Click's own words in the reader's language: "Usage:", "Options", "Error: No such option
'--x'.", "Missing argument", "Try 'seki play --help' for help.", "Show this message and
exit." and the rest a seki user meets.

Click marks them with the standard library's gettext (`from gettext import gettext as _`,
and `ngettext`, at the top of each of its modules), which reads the process-wide domain,
never seki's catalog nor the language the reader chose (--lang, config.toml, the
environment: i18n.choose). `use_seki_catalog` points those names, in each click module
that has them, at seki's `i18n.gettext` and `i18n.ngettext`: the one place click is
touched, called once when `seki` is loaded (cli.py). A message of click's that is not
listed here has no translation and stays English.

The messages are listed as data so that `pybabel extract` puts them in seki's catalog
(docs/translating.md): the singular ones marked `N_`, the counted ones as (singular,
plural) pairs in `COUNTED_MESSAGES` (i18n_extract.py extracts them as ngettext's). Each is
click's text exactly, its placeholders (`{name!r}`) included.
"""

from __future__ import annotations

from importlib import import_module

from . import i18n
from .refusal import N_

CLICK_MODULES = (
    "click.core",
    "click.decorators",
    "click.exceptions",
    "click.formatting",
    "click.parser",
    "click.termui",
    "click.types",
)

HELP_OPTION = N_("Show this message and exit.")  # the --help option's own help

MESSAGES = (
    # the help page
    N_("Usage:"),
    N_("Options"),
    N_("Positional arguments"),
    N_("Commands"),
    N_("default: {default}"),
    N_("required"),
    # a command line click cannot parse (exit status 2)
    N_("Error: {message}"),
    N_("Try '{command} {option}' for help."),
    N_("No such option {name!r}."),
    N_("No such command {name!r}."),
    N_("Missing argument"),
    N_("Missing option"),
    N_("Missing parameter"),
    N_("Missing command."),
    N_("Invalid value for {param_hint}: {message}"),
    N_("Invalid value: {message}"),
    N_("Option {name!r} does not take a value."),
    N_("{value!r} is not a valid {number_type}."),
    N_("{value} is not in the range {range}."),
    N_("Aborted!"),
)

COUNTED_MESSAGES = (
    ("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)"),
    ("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})"),
    ("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments."),
)


def use_seki_catalog() -> None:
    """Click's modules say their words through seki's catalog, in the language in use
    when they say them (the module docstring)."""
    for name in CLICK_MODULES:
        module = import_module(name)
        for attr, ours in (("_", i18n.gettext), ("ngettext", i18n.ngettext)):
            if hasattr(module, attr):
                setattr(module, attr, ours)
