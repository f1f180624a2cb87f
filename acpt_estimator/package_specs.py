"""Strict parsing of the package strings a job installs: pip requirements (PEP 508) and conda match specs."""

from __future__ import annotations

import re

from .exceptions import UserErrorException

# pip options that a package list may carry (v1's CondaDependencies.set_pip_option): index locations only.
_PIP_OPTIONS = ("--index-url", "--extra-index-url", "--find-links", "--trusted-host", "-i", "-f")
_PIP_FLAGS = ("--pre", "--prefer-binary", "--no-deps")
# An option's value: a URL, path or host; nothing a shell, a Dockerfile or a requirements file reads as syntax.
_OPTION_VALUE = re.compile(r"[A-Za-z0-9._~:/?#\[\]@!&'()*+,;=%-]+")
_OPTION = re.compile(r"(?P<flag>-[-A-Za-z]+)(?:[ =](?P<value>\S+))?")
# A wheel by URL or file name (v1 add_pip_package took both).
_WHEEL = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.-]*://)?[A-Za-z0-9._~/%@+:-]+\.whl")
# A VCS URL pip installs as is (``git+https://host/repo.git@tag#egg=name``): no whitespace or quotes.
_VCS = re.compile(r"(?:git|hg|svn|bzr)\+[a-z]+://[A-Za-z0-9._~:/?#\[\]@!&()*+,;=%-]+")
_HASH = re.compile(r"--hash[ =](sha256|sha384|sha512):[0-9a-fA-F]+")
# conda MatchSpec, strictly: [channel::]name[ version[ build]] with = == >= <= != ~= < > , | * and no quoting.
_CONDA = re.compile(r"(?:[A-Za-z0-9][\w.-]*(?:/[\w.-]+)*::)?[A-Za-z0-9_][\w.+-]*"
                    r"(?:(?:==?|>=?|<=?|!=|~=| )[\w.*+!=<>,|~-]+(?:[= ][\w.*+-]+)?)?")


def _refuse(parameter: str, value, what: str, example: str) -> UserErrorException:
    return UserErrorException(f"{parameter} holds {value!r}, which {what}. Pass one package per item as a pip "
                              f"requirement (PEP 508), e.g. {example}.")


def package_list(value, parameter: str, example: str = "['numpy==1.26.4']") -> tuple:
    """A list/tuple of strings (not one string, which would be split into one-letter packages)."""
    if value is None:
        return ()
    if isinstance(value, (str, bytes)):
        raise UserErrorException(
            f"{parameter}={value!r} is a single string; it must be a list of packages (a string would be read as "
            f"the one-letter packages {list(str(value))[:5]}...). Pass {parameter}={[value]!r}.")
    if not isinstance(value, (list, tuple)):
        raise UserErrorException(f"{parameter}={value!r} must be a list of package strings, e.g. "
                                 f"{parameter}={example}.")
    for item in value:
        if not isinstance(item, str):
            raise UserErrorException(f"{parameter} holds {item!r} ({type(item).__name__}); each package must be a "
                                     f"string, e.g. {parameter}={example}.")
    return tuple(value)


def pip_requirement(value, parameter: str = "pip_packages") -> str:
    """``value`` as the text to install: a PEP 508 requirement (normalised by ``packaging``), a wheel or VCS URL,
    a wheel file name, or an index option; anything else (newlines, shell syntax, editable installs) is refused."""
    from packaging.requirements import InvalidRequirement, Requirement

    if not isinstance(value, str):
        raise _refuse(parameter, value, f"is a {type(value).__name__}, not a string", "'numpy==1.26.4'")
    text = value.strip()
    if not text or not text.isprintable():  # also NEL, LS, PS: line breaks to some readers
        raise _refuse(parameter, value, "is empty or holds a control character (a newline would start a new "
                      "build instruction)", "'numpy==1.26.4'")
    if text.startswith("-"):
        return pip_option(text, parameter)
    if _WHEEL.fullmatch(text) or _VCS.fullmatch(text):
        return text
    try:
        return str(Requirement(text))
    except InvalidRequirement as err:
        raise _refuse(parameter, value, f"is not a pip requirement ({str(err).splitlines()[0]})",
                      "'numpy>=1.26,<2', 'mypkg @ https://host/mypkg-1.0-py3-none-any.whl' or "
                      "'mypkg @ git+https://host/repo.git@v1'") from None


def pip_option(text: str, parameter: str) -> str:
    match = _OPTION.fullmatch(text)
    flag, option_value = (match.group("flag"), match.group("value")) if match else (None, None)
    if flag in _PIP_FLAGS and option_value is None:
        return flag
    if flag in _PIP_OPTIONS and option_value and _OPTION_VALUE.fullmatch(option_value) and "'" not in option_value:
        return f"{flag} {option_value}"
    raise UserErrorException(
        f"{parameter} holds the pip option {text!r}, which a job cannot pass on: allowed are "
        f"{', '.join(o + ' <url>' for o in _PIP_OPTIONS[:4])} and {', '.join(_PIP_FLAGS)}. Install an editable or "
        "local project as 'name @ https://host/name-1.0-py3-none-any.whl', or put its code in source_directory.")


def pip_requirements_text(text: str, parameter: str = "pip_requirements_file") -> tuple:
    """The requirement lines of a requirements file, each parsed (comments, continuations and --hash kept apart)."""
    if "\0" in text:
        raise UserErrorException(f"{parameter} holds a NUL byte: it is not a requirements file. Pass a text file "
                                 "with one requirement per line.")
    lines = []
    for line in text.replace("\\\r\n", " ").replace("\\\n", " ").splitlines():
        line = re.sub(r"(^|\s)#.*", "", line).strip()
        if not line:
            continue
        hashes = _HASH.findall(line)
        requirement = _HASH.sub("", line).strip()
        if line.startswith("-") and not hashes:
            lines.append(pip_option(line, parameter))
            continue
        parsed = pip_requirement(requirement, parameter)
        lines.append(" ".join([parsed] + [f"--hash={m.group(0)[7:]}" for m in _HASH.finditer(line)]))
    return tuple(lines)


def conda_spec(value, parameter: str = "conda_packages") -> str:
    """A conda match spec (``numpy``, ``numpy=1.26``, ``conda-forge::numpy>=1.26,<2``, ``numpy 1.26.* py310*``)."""
    if not isinstance(value, str) or not _CONDA.fullmatch(value.strip()):
        raise UserErrorException(
            f"{parameter} holds {value!r}, which is not a conda package spec ([channel::]name[=version[=build]], "
            "letters, digits and . _ - + * = < > ! ~ , | only). Pass e.g. 'numpy=1.26' or "
            "'conda-forge::numpy>=1.26,<2'.")
    return value.strip()


def conda_file_packages(data, parameter: str = "conda_dependencies_file") -> None:
    """Every dependency of a parsed conda environment file: conda specs and its pip section's requirements."""
    if not isinstance(data, dict):
        return
    for dep in data.get("dependencies") or []:
        if isinstance(dep, dict):
            for item in dep.get("pip") or []:
                pip_requirement(item, f"{parameter} (pip section)")
        else:
            conda_spec(dep, parameter)
