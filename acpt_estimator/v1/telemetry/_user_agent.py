"""v1's ``azureml.telemetry.user_agent``: the user agent string that SDK clients send (kept in this process)."""

_parts = []


def append(product_name, product_version=None, comment=None):
    """Adds ``name/version (comment)`` to the user agent, once."""
    part = product_name + (f"/{product_version}" if product_version else "") + (f" ({comment})" if comment else "")
    if part not in _parts:
        _parts.append(part)


def get_user_agent() -> str:
    from acpt_estimator import __version__

    return " ".join([f"acpt-estimator/{__version__}", *_parts])
