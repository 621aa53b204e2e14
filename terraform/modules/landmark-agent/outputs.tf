output "agents" {
  description = "Every agent: cloud, region, public IP, beacon address (HOST:PORT) and WebSocket beacon URL, keyed by agent id."
  value = merge(
    {
      for id, a in local.aws_agents : id => {
        cloud     = "aws"
        region    = a.region
        public_ip = local.public_ips[id]
        beacon    = "${local.public_ips[id]}:${var.beacon_port}"
        ws_beacon = "ws://${local.public_ips[id]}:${var.ws_beacon_port}/"
      }
    },
    {
      for id, a in local.gcp_agents : id => {
        cloud     = "gcp"
        region    = a.region
        public_ip = local.public_ips[id]
        beacon    = "${local.public_ips[id]}:${var.beacon_port}"
        ws_beacon = "ws://${local.public_ips[id]}:${var.ws_beacon_port}/"
      }
    }
  )
}

output "beacon_addresses" {
  description = "Beacon addresses of all agents (HOST:PORT), sorted by agent id: the landmarks clients may calibrate against."
  value       = [for id in sort(keys(var.agents)) : "${local.public_ips[id]}:${var.beacon_port}"]
}

output "gcp_service_account_email" {
  description = "Service account of the GCP agents (null without GCP agents): grant it more only with care."
  value       = length(google_service_account.agent) > 0 ? google_service_account.agent[0].email : null
}

output "aws_role_name" {
  description = "IAM role of the AWS agents (null without AWS agents)."
  value       = length(aws_iam_role.agent) > 0 ? aws_iam_role.agent[0].name : null
}
