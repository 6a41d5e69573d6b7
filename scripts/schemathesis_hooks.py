"""Schemathesis hooks for scripts/schemathesis.sh (loaded through SCHEMATHESIS_HOOKS).

The administrator's run must not end its own session half-way: resetting one's own password revokes one's
sessions, and the rest of the run would then test nothing but 401. A call to /api/admin/staff/{id}… naming the
acting account (ST_OWN_STAFF_ID) is sent for an id that names nobody instead (404). Everything else is sent as
generated.
"""

import os

import schemathesis

OWN_STAFF_ID = os.environ.get("ST_OWN_STAFF_ID")


def _names_own_account(value: object) -> bool:
    # The server reads the id as a number ("1", "01", "1.0" and " 1" all name account 1).
    try:
        return OWN_STAFF_ID is not None and float(str(value).strip()) == float(OWN_STAFF_ID)
    except ValueError:
        return False


@schemathesis.hook
def before_call(context, case, kwargs):
    if not case.operation.path.startswith("/api/admin/staff/{id}"):
        return
    params = case.path_parameters or {}
    if _names_own_account(params.get("id")):
        params["id"] = int(float(OWN_STAFF_ID)) + 1_000_000
