echo deploy
