# AWS agents: one EC2 instance per agent in its own region (provider >= 6 "region" argument),
# Amazon Linux 2023 (cloud-init, AWS CLI and Corretto 21 in its repositories), an Elastic IP so
# the beacon address clients calibrate against stays put, IMDSv2 only, no SSH (use SSM).

data "aws_ssm_parameter" "al2023" {
  for_each = local.aws_agents
  region   = each.value.region
  name     = "/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64"
}

data "aws_vpc" "default" {
  for_each = local.aws_agents
  region   = each.value.region
  default  = true
}

resource "aws_security_group" "agent" {
  for_each    = local.aws_agents
  region      = each.value.region
  name_prefix = "${var.name_prefix}-agent-${each.key}-"
  description = "reed landmark agent ${each.key}: beacon in, probes and Kafka out"
  vpc_id      = data.aws_vpc.default[each.key].id
  tags        = merge(local.common_labels, { Name = "${var.name_prefix}-agent-${each.key}" })

  lifecycle {
    create_before_destroy = true
  }
}

resource "aws_vpc_security_group_ingress_rule" "beacon" {
  for_each = {
    for pair in setproduct(keys(local.aws_agents), var.beacon_allowed_cidrs) :
    "${pair[0]} ${pair[1]}" => { agent = pair[0], cidr = pair[1] }
  }
  region            = local.aws_agents[each.value.agent].region
  security_group_id = aws_security_group.agent[each.value.agent].id
  description       = "calibration beacon (A2S_INFO, Quake3 getinfo)"
  ip_protocol       = "udp"
  from_port         = var.beacon_port
  to_port           = var.beacon_port
  cidr_ipv4         = each.value.cidr
}

# The WebSocket beacon (TCP) web pages calibrate against, open like the UDP beacon.
resource "aws_vpc_security_group_ingress_rule" "ws_beacon" {
  for_each = {
    for pair in setproduct(keys(local.aws_agents), var.ws_beacon_allowed_cidrs) :
    "${pair[0]} ${pair[1]}" => { agent = pair[0], cidr = pair[1] }
  }
  region            = local.aws_agents[each.value.agent].region
  security_group_id = aws_security_group.agent[each.value.agent].id
  description       = "WebSocket beacon for web pages"
  ip_protocol       = "tcp"
  from_port         = var.ws_beacon_port
  to_port           = var.ws_beacon_port
  cidr_ipv4         = each.value.cidr
}

resource "aws_vpc_security_group_ingress_rule" "metrics" {
  for_each = {
    for pair in setproduct(keys(local.aws_agents), var.metrics_allowed_cidrs) :
    "${pair[0]} ${pair[1]}" => { agent = pair[0], cidr = pair[1] }
  }
  region            = local.aws_agents[each.value.agent].region
  security_group_id = aws_security_group.agent[each.value.agent].id
  description       = "Prometheus /metrics and /healthz"
  ip_protocol       = "tcp"
  from_port         = var.metrics_port
  to_port           = var.metrics_port
  cidr_ipv4         = each.value.cidr
}

# Probes go to game servers on any UDP port; DNS is UDP too.
resource "aws_vpc_security_group_egress_rule" "udp" {
  for_each          = local.aws_agents
  region            = each.value.region
  security_group_id = aws_security_group.agent[each.key].id
  description       = "game-server and peer-beacon probes, DNS"
  ip_protocol       = "udp"
  from_port         = 0
  to_port           = 65535
  cidr_ipv4         = "0.0.0.0/0"
}

resource "aws_vpc_security_group_egress_rule" "kafka" {
  for_each          = local.aws_agents
  region            = each.value.region
  security_group_id = aws_security_group.agent[each.key].id
  description       = "Kafka external listener"
  ip_protocol       = "tcp"
  from_port         = local.kafka_port
  to_port           = local.kafka_port
  cidr_ipv4         = "0.0.0.0/0"
}

resource "aws_vpc_security_group_egress_rule" "https" {
  for_each          = local.aws_agents
  region            = each.value.region
  security_group_id = aws_security_group.agent[each.key].id
  description       = "packages, agent download, Secrets Manager, SSM"
  ip_protocol       = "tcp"
  from_port         = 443
  to_port           = 443
  cidr_ipv4         = "0.0.0.0/0"
}

data "aws_iam_policy_document" "assume_ec2" {
  count = length(local.aws_agents) > 0 ? 1 : 0
  statement {
    actions = ["sts:AssumeRole"]
    principals {
      type        = "Service"
      identifiers = ["ec2.amazonaws.com"]
    }
  }
}

# The instances may read exactly one secret: the Kafka password.
data "aws_iam_policy_document" "read_kafka_secret" {
  count = length(local.aws_agents) > 0 ? 1 : 0
  statement {
    actions   = ["secretsmanager:GetSecretValue"]
    resources = [coalesce(var.kafka_password_secret_arn, "arn:aws:secretsmanager:us-east-1:000000000000:secret:unset")]
  }
}

resource "aws_iam_role" "agent" {
  count              = length(local.aws_agents) > 0 ? 1 : 0
  name_prefix        = "${var.name_prefix}-agent-"
  assume_role_policy = data.aws_iam_policy_document.assume_ec2[0].json
  tags               = local.common_labels
}

resource "aws_iam_role_policy" "read_kafka_secret" {
  count  = length(local.aws_agents) > 0 ? 1 : 0
  name   = "read-kafka-secret"
  role   = aws_iam_role.agent[0].id
  policy = data.aws_iam_policy_document.read_kafka_secret[0].json
}

resource "aws_iam_role_policy_attachment" "ssm" {
  count      = length(local.aws_agents) > 0 ? 1 : 0
  role       = aws_iam_role.agent[0].name
  policy_arn = "arn:aws:iam::aws:policy/AmazonSSMManagedInstanceCore"
}

resource "aws_iam_instance_profile" "agent" {
  count       = length(local.aws_agents) > 0 ? 1 : 0
  name_prefix = "${var.name_prefix}-agent-"
  role        = aws_iam_role.agent[0].name
}

resource "aws_instance" "agent" {
  for_each                    = local.aws_agents
  region                      = each.value.region
  ami                         = data.aws_ssm_parameter.al2023[each.key].insecure_value
  instance_type               = coalesce(each.value.instance_type, var.aws_instance_type)
  vpc_security_group_ids      = [aws_security_group.agent[each.key].id]
  iam_instance_profile        = aws_iam_instance_profile.agent[0].name
  user_data                   = local.cloud_init[each.key]
  user_data_replace_on_change = true

  metadata_options {
    http_tokens   = "required"
    http_endpoint = "enabled"
  }

  root_block_device {
    encrypted   = true
    volume_size = 16
    volume_type = "gp3"
  }

  tags = merge(local.common_labels, { Name = "${var.name_prefix}-agent-${each.key}", "reed-agent-id" = each.key })

  lifecycle {
    precondition {
      condition     = var.kafka_password_secret_arn != null
      error_message = "Agent ${each.key} is on AWS: set kafka_password_secret_arn (the Secrets Manager secret with the Kafka password)."
    }
  }
}

# Allocated before the instance: its address goes into the user data (REED_AGENT_BEACON_ADVERTISE),
# because behind AWS's 1:1 NAT the VM only sees its private address.
resource "aws_eip" "agent" {
  for_each = local.aws_agents
  region   = each.value.region
  domain   = "vpc"
  tags     = merge(local.common_labels, { Name = "${var.name_prefix}-agent-${each.key}" })
}

resource "aws_eip_association" "agent" {
  for_each      = local.aws_agents
  region        = each.value.region
  allocation_id = aws_eip.agent[each.key].id
  instance_id   = aws_instance.agent[each.key].id
}
