mkfifo static/feed.css
