"""Seed 000's test texts (llama_index's SentenceSplitter article): its English test.txt and its
Chinese ch.txt."""

EN = (
    "Before college the two main things I worked on, outside of school, were writing and"
    " programming. I didn't write essays. I wrote what beginning writers were supposed to write"
    " then, and probably still are: short stories. My stories were awful. They had hardly any"
    " plot, just characters with strong feelings, which I imagined made them deep.\n\n"
    "The first programs I tried writing were on the IBM 1401 that our school district used for"
    ' what was then called "data processing." This was in 9th grade, so I was 13 or 14. The'
    " school district's 1401 happened to be in the basement of our junior high school, and my"
    " friend Rich Draves and I got permission to use it. It was like a mini Bond villain's lair"
    " down there, with all these alien-looking machines — CPU, disk drives, printer, card reader"
    " — sitting up on a raised floor under bright fluorescent lights.\n\n\n\nNotes\n\n"
    "[1] My experience skipped a step in the evolution of computers: time-sharing machines with"
    " interactive OSes. I went straight from batch processing to microcomputers, which made"
    " microcomputers seem all the more exciting."
)

ZH = (
    "不過要注意的是, 實際上每一切片還會放置詮釋資料 (metadata), 單一切片的 token 數量要扣除詮釋"
    "資料的 token 數, 才是真正可以放置內容的 token 數量。以本例來說, 詮釋資料的內容是"
    ' "filepath: " 加上文件檔案的完整路徑, 我測試時是放在'
    ' "C:\\Users\\meebo\\code\\python\\debug_llama_index\\data\\test.txt", token 數量為 23,'
    " 所以若是預設的 1024 個 token, 減去 23 就是 1001 個 token。"
)
