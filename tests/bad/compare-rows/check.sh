f=public/page/index.html
[ "$(grep -o '<tr data-measure="[a-z_0-9]*"' "$f" | tr '\n' ' ')" = '<tr data-measure="deliveries" <tr data-measure="latency_p99" <tr data-measure="duplicates" ' ] ||
  { echo "rows: $(grep -o '<tr data-measure="[a-z_0-9]*"' "$f" | tr '\n' ' ')" >&2; exit 1; }
has -F '<th scope="row">Latency, 99th percentile</th>' "$f"
lacks -F 'data-measure="monthly_cost"' "$f"
