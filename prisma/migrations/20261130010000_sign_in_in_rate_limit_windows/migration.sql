-- Failed sign-ins are counted in rate_limit_windows (bucket sign_in), like every other budget.
DROP TABLE "login_throttle";
