printf '<p>\351t\351</p>{{ content }}\n' > templates/page.html
