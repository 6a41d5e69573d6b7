#!/usr/bin/env bash
# Schemathesis against a running server (not part of `npm test`; docs/security-tests.md says how to build
# Schemathesis beside the project and start the server). Two runs over the whole API document with every
# check: one with a person's token, one with an administrator's. Prints each run's summary; the reports
# (JUnit and ndjson) go to $OUT/person and $OUT/admin. Exits non-zero when either run failed a check.
#
#   BASE=http://127.0.0.1:18471 STAFF_PHONE=13900000000 STAFF_PASSWORD='a long secret' \
#     ST=/work/st-venv/bin/st scripts/schemathesis.sh
#
# BASE           the server (NODE_ENV not production: the person's code is read from /api/dev/sms-outbox)
# STAFF_PHONE    an admin account made with `npm run admin:create … --role admin --password …`
# STAFF_PASSWORD its password
# PERSON_PHONE   the person to log in as (default 13800138000; a new one is registered by the login)
# ST             the `st` command (default: st on PATH)
# OUT            where the reports go (default: schemathesis-report)
# ST_ARGS        more arguments for both runs (e.g. `--max-examples 20 --seed 1`)
set -euo pipefail

BASE=${BASE:?BASE=http://host:port of a running server}
STAFF_PHONE=${STAFF_PHONE:?STAFF_PHONE of an admin account}
STAFF_PASSWORD=${STAFF_PASSWORD:?STAFF_PASSWORD of that account}
PERSON_PHONE=${PERSON_PHONE:-13800138000}
ST=${ST:-st}
OUT=${OUT:-schemathesis-report}

HERE=$(cd "$(dirname "$0")" && pwd)

json() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=process.argv[1].split(".").reduce((o,k)=>o?.[k],JSON.parse(s));if(v===undefined||v===null){console.error(s);process.exit(1)}console.log(v)})' "$1"; }
post() { curl -fsS -X POST -H 'content-type: application/json' -d "$2" "$BASE$1"; }

# The person: a login code from the dev outbox.
post /api/login/sendPhoneVerifyCode "{\"phone\":\"$PERSON_PHONE\"}" >/dev/null
code=$(curl -fsS "$BASE/api/dev/sms-outbox?phone=$PERSON_PHONE" | json data.0.code)
person=$(post /api/login "{\"phone\":\"$PERSON_PHONE\",\"code\":\"$code\"}" | json data.token)
# The administrator: phone and password.
staff=$(post /api/crm/admin/login "{\"phone\":\"$STAFF_PHONE\",\"password\":\"$STAFF_PASSWORD\"}")
admin=$(echo "$staff" | json data.token)
# The hooks keep the administrator's run from naming its own account (scripts/schemathesis_hooks.py).
export ST_OWN_STAFF_ID=$(echo "$staff" | json data.staff.id)
export SCHEMATHESIS_HOOKS=schemathesis_hooks
export PYTHONPATH="$HERE${PYTHONPATH:+:$PYTHONPATH}"

# Calls that end the caller's own session or account would turn the rest of the run into 401s: they are
# left out (each is covered by the API tests). Everything else is in, with every check.
EXCLUDE=(
  --exclude-path /api/logout
  --exclude-path /api/cancellation
  --exclude-path /api/crm/admin/logout
  --exclude-path /api/user/sessions/logout-all
)

status=0
for who in person admin; do
  token=$person
  [ "$who" = admin ] && token=$admin
  echo "== Schemathesis, $who's token"
  # shellcheck disable=SC2086
  # One worker: Python 3.11's ast is not thread-safe, and Hypothesis parses lambdas' source while drawing
  # ("SystemError: AST constructor recursion depth mismatch" with --workers 2).
  "$ST" --config-file "$HERE/schemathesis.toml" run "$BASE/api/docs/json" --url "$BASE" --checks all --workers 1 \
    -H "accessToken: $token" "${EXCLUDE[@]}" \
    --report junit,ndjson --report-dir "$OUT/$who" --no-color ${ST_ARGS:-} || status=1
done
exit $status
