#!/usr/bin/env bash
# Generates a SQL migration from src/db/schema.ts, then removes the "public". qualifier drizzle-kit
# writes into foreign keys, so the same migration works in any schema (tests use one per app).
set -euo pipefail
cd "$(dirname "$0")/.."
npx drizzle-kit generate "$@"
sed -i 's/"public"\.//g' drizzle/*.sql
