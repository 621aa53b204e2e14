# Landmark agents on cloud VMs (docs/design.md section 1: well-connected agents around the world that
# probe each other and every game server; REED section 6.3, third-party deployment).
# Each VM: a JRE and the landmark agent's jar set from cloud-init, the agent under systemd, Kafka
# credentials read from the cloud's secret store at every start (never stored in Terraform).

locals {
  aws_agents = { for id, a in var.agents : id => a if a.cloud == "aws" }
  gcp_agents = { for id, a in var.agents : id => a if a.cloud == "gcp" }

  kafka_port = tonumber(split(":", var.kafka_bootstrap)[1])

  # The credentials helper is the same on both clouds; SECRET_STORE selects the API it calls.
  credentials_script_b64 = base64encode(file("${path.module}/templates/reed-kafka-credentials.sh"))
  systemd_unit_b64       = base64encode(file("${path.module}/templates/reed-agent.service"))

  common_labels = merge(var.labels, {
    "app" = "reed-landmark-agent"
  })

  # The public address clients and peers reach the beacon at (the VM itself sees a private one).
  public_ips = merge(
    { for id, a in local.aws_agents : id => aws_eip.agent[id].public_ip },
    { for id, a in local.gcp_agents : id => google_compute_address.agent[id].address },
  )

  # One cloud-config per agent. The template only uses plain ${name} interpolation (no directives),
  # so terraform/src/test renders it exactly and checks the result.
  cloud_init = {
    for id, a in var.agents : id => templatefile("${path.module}/templates/cloud-init.yaml.tftpl", {
      agent_id                  = id
      region                    = a.region
      location                  = local.agent_locations[id]
      jre_package               = a.cloud == "aws" ? "java-21-amazon-corretto-headless" : "openjdk-21-jre-headless"
      kafka_bootstrap           = var.kafka_bootstrap
      kafka_username            = var.kafka_username
      kafka_ca_certificate_b64  = base64encode(var.kafka_ca_certificate_pem)
      secret_store              = a.cloud == "aws" ? "aws" : "gcp"
      secret_ref                = a.cloud == "aws" ? coalesce(var.kafka_password_secret_arn, "unset") : coalesce(var.kafka_password_secret_id, "unset")
      credentials_script_b64    = local.credentials_script_b64
      systemd_unit_b64          = local.systemd_unit_b64
      distribution_url          = var.agent_distribution_url
      distribution_sha256       = var.agent_distribution_sha256
      beacon_port               = var.beacon_port
      beacon_advertise          = "${local.public_ips[id]}:${var.beacon_port}"
      ws_beacon_port            = var.ws_beacon_port
      ws_advertise              = "${local.public_ips[id]}:${var.ws_beacon_port}"
      metrics_port              = var.metrics_port
      probe_interval            = var.probe_interval
      probe_rate                = var.probe_rate
      do_not_probe              = join(" ", var.do_not_probe_cidrs)
      deny_file_b64             = base64encode(join("", concat(["# do_not_probe_cidrs: game servers that asked not to be probed\n"], [for c in var.do_not_probe_cidrs : "${c}\n"])))
    })
  }
}
