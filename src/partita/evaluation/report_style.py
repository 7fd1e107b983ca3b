"""The evaluation report's stylesheet, inlined in its `<style>` (no font, no link)."""

__all__ = ["CSS"]

CSS = """
:root{color-scheme:light;--ink:#1b1b1b;--muted:#555;--line:#d4d4d4;--accent:#0072B2}
*{box-sizing:border-box}body{margin:0;background:#fff;color:var(--ink);font:16px/1.5 system-ui,
-apple-system,"Segoe UI",Roboto,"DejaVu Sans","Helvetica Neue",Arial,sans-serif}
main{max-width:1200px;margin:0 auto;padding:16px 20px 40px;overflow-wrap:break-word}
h1{font-size:1.7rem;line-height:1.25;margin:.3em 0 0}h2{font-size:1.3rem;margin:1.6em 0 .4em}
h3{font-size:1rem;margin:.8em 0 .2em}.sub,.note,summary,.facts dt{color:var(--muted)}
.sub{margin:.2em 0 1em}.note{margin:.4em 0}details{margin:.4em 0}summary{cursor:pointer}
.facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(160px,1fr));gap:6px 20px}
.facts dt{font-size:.85rem}.facts dd{margin:0;font-weight:600;overflow-wrap:anywhere}
.recommendation{border:2px solid var(--accent);border-left-width:8px;border-radius:6px;
background:#eef5fb;padding:4px 18px 12px;margin-top:1.2em}.recommendation h2{margin-top:.5em}
.recommendation ul,.recommendation ol{margin:.2em 0;padding-left:1.4em}
.use{font-size:1.2rem;margin:.2em 0}code{font:.9em ui-monospace,"DejaVu Sans Mono",Menlo,
monospace;background:#fff;border:1px solid var(--line);border-radius:4px;padding:0 4px}
.table-wrap{overflow-x:auto;border:1px solid var(--line);border-radius:6px}
table{border-collapse:collapse;font-size:.84rem;font-variant-numeric:tabular-nums;width:100%}
th,td{padding:4px 5px;border-bottom:1px solid var(--line);text-align:right;white-space:nowrap}
thead th{vertical-align:bottom;line-height:1.25;white-space:normal;background:#f4f4f4}
thead th[scope=colgroup]{text-align:center;border-left:2px solid #fff}
tbody th{text-align:left;font-weight:500;white-space:normal;min-width:11em;max-width:18em;
position:sticky;left:0;background:#fff}thead th:first-child{text-align:left;position:sticky;left:0}
.key{display:inline-block;min-width:1.6em;padding:0 .3em;border-radius:4px;text-align:center;
font-weight:700;font-size:.85em;line-height:1.35;print-color-adjust:exact;
-webkit-print-color-adjust:exact}
.badge{font-size:.75em;border:1px solid var(--accent);color:var(--accent);border-radius:4px;
padding:0 4px}.glossary{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px}
.glossary dt{font-weight:600}.glossary dd{margin:0}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,340px),1fr));gap:16px}
.grid.wide{grid-template-columns:repeat(auto-fill,minmax(min(100%,460px),1fr))}
figure{margin:0;border:1px solid var(--line);border-radius:6px;padding:8px 10px;
break-inside:avoid}figcaption{font-weight:600;margin-bottom:4px}
figcaption span{font-weight:400;color:var(--muted)}.facts-line{display:block;font-size:.85rem}
svg{display:block;width:100%;height:auto}
@media (max-width:600px){main{padding:10px 12px 30px}h1{font-size:1.45rem}
.recommendation{padding:2px 12px 10px;border-left-width:6px}}
@media print{main{max-width:none;padding:0}table{font-size:.7rem}.recommendation{background:none}
.table-wrap{overflow:visible;border:0}tbody th,thead th:first-child{position:static}
.grid,.grid.wide{grid-template-columns:1fr 1fr}h2{break-after:avoid}}
"""
