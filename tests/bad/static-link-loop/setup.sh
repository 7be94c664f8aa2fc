ln -s . static/self
