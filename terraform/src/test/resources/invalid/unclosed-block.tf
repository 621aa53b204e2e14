# Deliberately broken: an expression is missing and the resource block is never closed.
variable "region" {
  type =
}

resource "aws_instance" "agent" {
  region = var.region
