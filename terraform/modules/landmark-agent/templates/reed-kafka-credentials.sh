#!/bin/bash
# Writes the reed agent's Kafka client settings (SASL_SSL, SCRAM-SHA-512) to
# $REED_RUNTIME_DIR/kafka-client.properties, reading the password from the cloud secret store:
#   SECRET_STORE=aws  KAFKA_PASSWORD_SECRET=<Secrets Manager ARN>     (AWS CLI, instance role)
#   SECRET_STORE=gcp  KAFKA_PASSWORD_SECRET=projects/P/secrets/NAME    (metadata-server token + REST)
# Runs as systemd ExecStartPre of reed-agent.service. The password exists only in the secret store
# and in this tmpfs file (mode 0600, owned by the agent's user); never in Terraform or user data.
set -euo pipefail

CREDENTIALS_ENV=${CREDENTIALS_ENV:-/etc/reed/credentials.env}
REED_RUNTIME_DIR=${REED_RUNTIME_DIR:-/run/reed}
REED_USER=${REED_USER:-reed}
# shellcheck source=/dev/null
source "$CREDENTIALS_ENV"
: "${SECRET_STORE:?}" "${KAFKA_PASSWORD_SECRET:?}" "${KAFKA_USERNAME:?}" "${KAFKA_CA_FILE:?}"

fetch_aws() {
  local region
  region=$(cut -d: -f4 <<<"$KAFKA_PASSWORD_SECRET")   # arn:aws:secretsmanager:REGION:ACCOUNT:secret:NAME
  aws secretsmanager get-secret-value --region "$region" --secret-id "$KAFKA_PASSWORD_SECRET" \
    --query SecretString --output text
}

fetch_gcp() {
  local token
  token=$(curl -fsS --retry 3 -H 'Metadata-Flavor: Google' \
    'http://metadata.google.internal/computeMetadata/v1/instance/service-accounts/default/token' | jq -r .access_token)
  curl -fsS --retry 3 -H "Authorization: Bearer $token" \
    "https://secretmanager.googleapis.com/v1/$KAFKA_PASSWORD_SECRET/versions/latest:access" \
    | jq -r .payload.data | base64 -d
}

case "$SECRET_STORE" in
  aws) password=$(fetch_aws) ;;
  gcp) password=$(fetch_gcp) ;;
  *) echo "reed-kafka-credentials: unknown SECRET_STORE '$SECRET_STORE' (aws or gcp)" >&2; exit 2 ;;
esac

if [[ -z "$password" ]]; then
  echo "reed-kafka-credentials: the secret $KAFKA_PASSWORD_SECRET is empty" >&2
  exit 1
fi
if [[ "$password" == *'"'* || "$password" == *'\'* || "$password" == *$'\n'* ]]; then
  echo "reed-kafka-credentials: the password contains a quote, backslash or newline; JAAS cannot carry it" >&2
  exit 1
fi

umask 077
mkdir -p "$REED_RUNTIME_DIR"
tmp=$(mktemp "$REED_RUNTIME_DIR/kafka-client.properties.XXXXXX")
cat >"$tmp" <<PROPERTIES
security.protocol=SASL_SSL
sasl.mechanism=SCRAM-SHA-512
sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="$KAFKA_USERNAME" password="$password";
ssl.truststore.type=PEM
ssl.truststore.location=$KAFKA_CA_FILE
PROPERTIES
chown "$REED_USER:$REED_USER" "$tmp"
mv -f "$tmp" "$REED_RUNTIME_DIR/kafka-client.properties"
echo "reed-kafka-credentials: wrote $REED_RUNTIME_DIR/kafka-client.properties for $KAFKA_USERNAME from $SECRET_STORE"
