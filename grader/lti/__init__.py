"""LTI 1.3: platforms, the OIDC login and launch, the tool's keys, score passback."""
