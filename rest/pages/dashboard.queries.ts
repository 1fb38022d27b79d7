/**
 * The GraphQL documents the dashboard's panels send (rest/pages/dashboard.page.ts): the page shows
 * each beside its panel and its script sends the shown text as it is, so what an integrator copies
 * is what runs. Variables are the script's: `$code` is the project chosen for the reports, and
 * `$timeZone` the browser's (the buckets are its days).
 */

export const PROJECTS_QUERY = `query DashboardProjects {
  organization {
    name
  }
  projects(first: 50) {
    totalCount
    edges {
      node {
        code
        name
        stats {
          cases
          runs
          runsInProgress
          milestones
          defectsUnresolved
        }
      }
    }
  }
}`;

/** Plans come by planNumber: the newest 10 of each project, of which the draft and active ones are shown. */
export const OPEN_PLANS_QUERY = `query DashboardOpenPlans {
  projects(first: 50) {
    edges {
      node {
        code
        plans(last: 10) {
          edges {
            node {
              ulid
              name
              status
              progress {
                totalRuns
                closedRuns
                counts { passed failed blocked skipped untested }
              }
            }
          }
        }
      }
    }
  }
}`;

export const RUNS_IN_PROGRESS_QUERY = `query DashboardRunsInProgress {
  projects(first: 50) {
    edges {
      node {
        code
        runs(status: ["in_progress"], first: 4) {
          totalCount
          edges {
            node {
              ulid
              name
              createdAt
              state
              total
              passRate
              counts { passed failed blocked skipped untested }
            }
          }
        }
      }
    }
  }
}`;

/** One subscription per run followed, over Server-Sent Events (POST /graphql with Accept: text/event-stream). */
export const RUN_PROGRESS_SUBSCRIPTION = `subscription DashboardRunProgress($runUlid: String!) {
  runProgress(runUlid: $runUlid) {
    runUlid
    state
    total
    passRate
    counts { passed failed blocked skipped untested }
  }
}`;

export const PASS_RATE_TREND_QUERY = `query DashboardPassRateTrend($code: String!, $timeZone: String) {
  project(code: $code) {
    reports {
      trend(bucket: "day", timeZone: $timeZone) {
        from
        to
        buckets { start passRate passed failed blocked skipped }
      }
    }
  }
}`;

/** `$planUlid` null: every run of the project. */
export const BURN_UP_QUERY = `query DashboardBurnUp($code: String!, $planUlid: String, $timeZone: String) {
  project(code: $code) {
    reports(planUlid: $planUlid) {
      burnUp(bucket: "day", timeZone: $timeZone) {
        points { start totalRuns closedRuns passed failed blocked skipped untested }
      }
    }
  }
}`;

export const TOP_FAILING_QUERY = `query DashboardTopFailing($code: String!) {
  project(code: $code) {
    reports {
      failing(limit: 30, pageSize: 10) {
        items { caseUlid displayId title suitePath failures failureRate lastFailureMessage }
      }
    }
  }
}`;

export const FLAKY_TESTS_QUERY = `query DashboardFlakyTests($code: String!) {
  project(code: $code) {
    flakyTests(pageSize: 10) {
      total
      items { caseUlid displayId title flips flakyRate runs { ulid name } }
    }
  }
}`;
